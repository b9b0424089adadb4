// zdr-embed/svelte's action: <div use:zdrChart={{ visualizationData, mode: 'local' }}>.
// Its options are render's (less the container, which is the element),
// and onHandle, called with the card's EmbedHandle once it is drawn and
// with null once it is gone. New data update the card in place; a change
// of an option that shapes the card draws it anew; the element leaving the
// page destroys it. Actions run in the browser only, never on the server.
import { mount, shapeOf } from '../components.js';

export function zdrChart(node, options) {
  let current = options;
  let shape = shapeOf(options);
  const start = () => mount(node, () => current, (handle) => current.onHandle?.(handle));
  let life = start();
  return {
    update(next) {
      const data = current.visualizationData;
      current = next;
      if (shapeOf(next) !== shape) {
        shape = shapeOf(next);
        life.destroy();
        life = start();
      } else if (next.visualizationData !== data) {
        life.update(next.visualizationData);
      }
    },
    destroy() {
      life.destroy();
    },
  };
}
