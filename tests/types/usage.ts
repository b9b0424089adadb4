// Compiled by `tsc -p tests/types` in the test run: the package's types must
// accept correct use and reject wrong use (each @ts-expect-error must error).
import init, { render, renderMultiple, preload, EmbedHandle, RenderOptions, VisualizationData } from 'zdr-embed';
// The entry sets the engine loader itself: its hook is no part of the package's interface.
import { __setEngineLoader } from 'zdr-embed';

await init();
// The engine ahead of the first local card: its data errors then throw from render.
const ready: Promise<void> = preload();
void ready;
// @ts-expect-error __setEngineLoader is exported as a type only, not a value one may call
__setEngineLoader(() => import('zdr-embed'));

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
const frame: HTMLIFrameElement | null = handle.iframe;
const canvas: HTMLCanvasElement | null = handle.canvas;
const mode: 'service' | 'local' = handle.mode;
const png: Promise<Blob> = handle.toPNG();
const svg: string = handle.toSVG();
const csv: string = handle.toCSV();
const asked: boolean = handle.setSeriesVisible('Web', false);
handle.setView({ x: [new Date('2025-01-01'), '2025-02-01'] });
handle.setView(null);
render({ containerId: 'chart', mode: 'local', visualizationData: data, syncGroup: 'sales', syncZoom: true, menu: true, onViewChange: (v) => v.x?.[0] });
// Local mode needs no service; onLoad receives the canvas.
render({ containerId: 'chart', mode: 'local', visualizationData: data, darkMode: true, onLoad: (c) => c.getContext('2d') });
// postMessage embed mode: the frame's height from its content, a deadline for the shell.
render({ ...options, embedMode: 'postmessage', height: 'auto', timeoutMs: 3000, onLoad: (f) => f.contentWindow });
render({ containerId: 'chart', serviceUrl: 'https://charts.example.com', cardId: 'c', visualizationData: data, mode: 'auto', embedMode: 'form' });
// Auto mode: either element.
render({ ...options, mode: 'auto', timeoutMs: 2000, onLoad: (el) => el.tagName });
handle.update({ viz_config: { title: 'New' }, data: { rows: [] } });
handle.destroy();
const handles: EmbedHandle[] = renderMultiple([options, options]);
void frame;
void canvas;
void mode;
void png;
void svg;
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
// @ts-expect-error mode is one of three words
render({ ...options, mode: 'canvas' });
// @ts-expect-error auto mode needs the service
render({ containerId: 'chart', mode: 'auto', visualizationData: data });
// @ts-expect-error darkMode is a boolean
render({ ...options, darkMode: 'yes' });
// @ts-expect-error timeoutMs waits for a service: not in local mode
render({ containerId: 'chart', mode: 'local', visualizationData: data, timeoutMs: 10 });
// @ts-expect-error embedMode is "form" or "postmessage"
render({ ...options, embedMode: 'iframe' });
// @ts-expect-error embedMode is for the service: not in local mode
render({ containerId: 'chart', mode: 'local', visualizationData: data, embedMode: 'postmessage' });

// An element instead of an id: one of the two, never both.
render({ container: document.createElement('div'), mode: 'local', visualizationData: data });
// @ts-expect-error container and containerId together
render({ container: document.createElement('div'), containerId: 'chart', mode: 'local', visualizationData: data });
// @ts-expect-error neither container nor containerId
render({ mode: 'local', visualizationData: data });

// The element: its tag, property and events are typed once "zdr-embed/element" is imported.
import 'zdr-embed/element';
const element = document.createElement('zdr-embed');
element.visualizationData = data;
element.setAttribute('mode', 'local');
element.addEventListener('zdr-load', (event) => event.detail.element.tagName);
element.addEventListener('zdr-error', (event) => event.detail.error.message);
const shownHandle: EmbedHandle | null = element.handle;
void shownHandle;
// @ts-expect-error visualizationData is the card's data, not a string
element.visualizationData = 'text';

// The drop-in script's global.
import type {} from 'zdr-embed/widget';
window.ServiceZDREmbed.render({ containerId: 'chart', mode: 'local', visualizationData: data });
// @ts-expect-error the global's render takes render's options
window.ServiceZDREmbed.render({ containerId: 1 });
