// What the framework components (zdr-embed/react, /vue, /svelte) share: one
// card mounted in an element once the package has started, its data
// updated in place, and drawn anew only when an option that shapes the
// card itself changes. No framework code here: each component calls it
// from its own mount, update and unmount.
//
// Copied into pkg/ by scripts/build.sh.
import init, { render } from './zdr_embed.js';

/** Options a changed value of which needs a new card; the data alone are updated. */
const SHAPING = ['mode', 'serviceUrl', 'cardId', 'embedMode', 'timeoutMs', 'width', 'height', 'darkMode', 'syncGroup', 'syncZoom', 'menu'];

/** What the shaping options are now, as one string to compare. */
export const shapeOf = (options) => JSON.stringify(SHAPING.map((name) => options[name] ?? null));

/**
 * Mounts a card in `container` once the package has started, with the
 * options `latest()` gives then (so that data changed meanwhile are the
 * ones drawn); callbacks are always the latest ones. `onHandle` gets the
 * card's EmbedHandle, and null once it is gone. Errors go to `onError`,
 * else to console.error, as render's own do.
 */
export function mount(container, latest, onHandle) {
  let card = null;
  let gone = false;
  // The data last shown, as text: a framework that hands over equal data
  // in a new object (a re-render) does not redraw the card.
  let shown = null;
  const report = (error) => {
    const onError = latest().onError;
    if (typeof onError === 'function') onError(error);
    else console.error(error);
  };
  const options = () => {
    const given = latest();
    const picked = { container, visualizationData: given.visualizationData, onError: report };
    for (const name of SHAPING) if (given[name] !== undefined) picked[name] = given[name];
    if (given.onLoad) picked.onLoad = (element) => latest().onLoad?.(element);
    if (given.onViewChange) picked.onViewChange = (view) => latest().onViewChange?.(view);
    return picked;
  };
  init()
    .then(() => {
      if (gone) return;
      const first = options();
      card = render(first);
      shown = JSON.stringify(first.visualizationData);
      onHandle?.(card);
    })
    .catch(report);
  return {
    /** New data for the same card: a redraw, or a new post into its frame; equal data, nothing. */
    update(visualizationData) {
      if (!card) return;
      try {
        const text = JSON.stringify(visualizationData);
        if (text === shown) return;
        card.update(visualizationData);
        shown = text;
      } catch (error) {
        report(error);
      }
    },
    /** Removes the card and all it holds; a card still starting is never drawn. */
    destroy() {
      gone = true;
      if (card) {
        card.destroy();
        card = null;
        onHandle?.(null);
      }
    },
  };
}
