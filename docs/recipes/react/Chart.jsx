import { useEffect, useRef } from 'react';
import init, { render } from 'zdr-embed';

// One card; new `data` updates it, new options draw it anew, unmounting destroys it.
export function Chart({ data, mode = 'local', height = '360px' }) {
  const box = useRef(null);
  const card = useRef(null);
  const latest = useRef(data);
  latest.current = data;

  useEffect(() => {
    let mounted = true;
    init().then(() => {
      if (mounted) card.current = render({ container: box.current, mode, height, visualizationData: latest.current });
    });
    return () => {
      mounted = false;
      card.current?.destroy();
      card.current = null;
    };
  }, [mode, height]);

  useEffect(() => {
    card.current?.update(data);
  }, [data]);

  return <div ref={box} />;
}
