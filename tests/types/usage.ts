// Compiled by `tsc -p tests/types` in the test run: the package's types must
// accept correct use and reject wrong use (each @ts-expect-error must error).
import init, { render, renderMultiple, EmbedHandle, RenderOptions, VisualizationData } from 'zdr-embed';

await init();

const data: VisualizationData = { viz_config: { title: 'Sales' }, data: [{ x: 'a', y: 1 }] };
const options: RenderOptions = {
  containerId: 'chart',
  serviceUrl: 'https://charts.example.com',
  cardId: 'abc',
  visualizationData: data,
  width: '100%',
  height: 400,
  onLoad: (iframe) => iframe.contentWindow,
  onError: (error) => error.message,
};
const handle: EmbedHandle = render(options);
const frame: HTMLIFrameElement = handle.iframe;
handle.update({ viz_config: { title: 'New' }, data: { rows: [] } });
handle.destroy();
const handles: EmbedHandle[] = renderMultiple([options, options]);
void frame;
void handles;

// cardId is required
// @ts-expect-error
render({ containerId: 'chart', serviceUrl: 'https://x', visualizationData: data });
// @ts-expect-error containerId must be a string
render({ ...options, containerId: 1 });
// @ts-expect-error visualizationData needs data
render({ ...options, visualizationData: { viz_config: { title: 't' } } });
// @ts-expect-error onLoad receives an iframe, not a string
render({ ...options, onLoad: (frame: string) => frame });
// @ts-expect-error update takes visualization data
handle.update('not data');
// @ts-expect-error the handle has no such member
handle.refresh();
