// zdr-embed/react: <ZdrChart visualizationData={…} mode="local" /> for
// React 18 and 19. Its props are render's options (less the container,
// which is its own <div>), and className and style for that <div>. A new
// visualizationData object updates the card in place (the same canvas or
// frame); a change of an option that shapes the card (mode, cardId, size,
// theme…) draws it anew; unmounting destroys it. A ref gets the card's
// EmbedHandle (toPNG, toSVG, toCSV, setView…), null until it is drawn.
// Rendered on the server it is an empty <div>: the card is drawn in the
// browser, after hydration.
//
// Copied into pkg/ by scripts/build.sh; types in react.d.ts.
import { createElement, forwardRef, useEffect, useRef } from 'react';
import { mount, shapeOf } from './components.js';

const setRef = (ref, value) => {
  if (typeof ref === 'function') ref(value);
  else if (ref) ref.current = value;
};

export const ZdrChart = forwardRef(function ZdrChart(props, ref) {
  const { className, style, ...options } = props;
  const box = useRef(null);
  const card = useRef(null);
  const latest = useRef(options);
  latest.current = options;
  const refNow = useRef(ref);
  refNow.current = ref;

  const shape = shapeOf(options);
  useEffect(() => {
    const life = mount(box.current, () => latest.current, (handle) => setRef(refNow.current, handle));
    card.current = life;
    return () => {
      life.destroy();
      card.current = null;
    };
  }, [shape]);

  // A card not drawn yet takes the latest data when it is.
  useEffect(() => {
    card.current?.update(options.visualizationData);
  }, [options.visualizationData]);

  return createElement('div', { ref: box, className, style });
});
