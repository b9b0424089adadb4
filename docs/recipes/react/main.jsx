import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Chart } from './Chart.jsx';

const sales = (q4) => ({
  viz_config: { title: `Sales, Q4 ${q4}`, viz_component_type: 'bar' },
  data: [{ x: 'Q1', y: 120 }, { x: 'Q2', y: 150 }, { x: 'Q3', y: 90 }, { x: 'Q4', y: q4 }],
});

function App() {
  const [q4, setQ4] = useState(180);
  const [shown, setShown] = useState(true);
  return (
    <>
      <button id="more" onClick={() => setQ4(q4 + 40)}>More in Q4</button>
      <button id="toggle" onClick={() => setShown(!shown)}>Show or hide</button>
      {shown && <Chart data={sales(q4)} />}
    </>
  );
}

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
