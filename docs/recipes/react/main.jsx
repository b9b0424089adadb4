import { StrictMode, useMemo, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ZdrChart } from 'zdr-embed/react';

function App() {
  const [q4, setQ4] = useState(180);
  const [shown, setShown] = useState(true);
  const [draws, setDraws] = useState(0);
  const [csv, setCsv] = useState('');
  const chart = useRef(null);
  const sales = useMemo(() => ({
    viz_config: { title: `Sales, Q4 ${q4}`, viz_component_type: 'bar' },
    data: [{ x: 'Q1', y: 120 }, { x: 'Q2', y: 150 }, { x: 'Q3', y: 90 }, { x: 'Q4', y: q4 }],
  }), [q4]);
  return (
    <>
      <button id="more" onClick={() => setQ4(q4 + 40)}>More in Q4</button>
      <button id="toggle" onClick={() => setShown(!shown)}>Show or hide</button>
      <button id="csv" onClick={() => setCsv(chart.current?.toCSV() ?? '')}>As CSV</button>
      {shown && (
        <ZdrChart ref={chart} mode="local" height="360px" visualizationData={sales} onLoad={() => setDraws((n) => n + 1)} />
      )}
      <p id="draws">Drawn {draws} times</p>
      <pre id="table">{csv}</pre>
    </>
  );
}

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
