// The package's entry ("zdr-embed"): the service module, always loaded, and
// the engine module, loaded by the service module the first time a page
// draws a card itself (local or auto mode, toPNG/toSVG) or calls preload().
//
// The engine is named here by a plain dynamic import of a relative path, so
// that a bundler sees it, splits it into a chunk of its own and copies its
// .wasm (the engine's glue finds that with new URL(..., import.meta.url));
// served as files, the browser resolves it beside this one.
//
// Copied into pkg/ by scripts/build.sh; the TypeScript types are
// zdr_embed.d.ts beside it.
//
// Importing it touches no browser global, so a server that renders the
// page (Next.js, SvelteKit, Nuxt) can import it; a call there, or before
// init(), throws an Error that says what to do instead of a TypeError from
// deep in the glue.
import initService, {
  __setEngineLoader,
  EmbedHandle,
  initSync as initServiceSync,
  preload as servicePreload,
  render as serviceRender,
  renderMultiple as serviceRenderMultiple,
} from './service/zdr_embed_service.js';

// One load of the engine for the page, shared by an early preload() and
// the service module's loader: the module fetched and its wasm compiled
// once. A failed load is forgotten, so that a later card tries again.
// Its .wasm is fetched and compiled beside its glue, not once the glue has
// arrived: one round trip less before the first card, and the compilation
// done while the glue downloads (the same new URL(…, import.meta.url) the
// glue has, so bundlers emit the one asset). Where that compilation fails
// (a server that does not send application/wasm, an old browser), the glue
// fetches the file itself and says why, or falls back as it knows how.
let engineLoad = null;
const loadEngine = () => {
  if (!engineLoad) {
    const url = new URL('./engine/zdr_engine_bg.wasm', import.meta.url);
    const compiled =
      typeof WebAssembly.compileStreaming === 'function'
        ? WebAssembly.compileStreaming(fetch(url)).catch(() => null)
        : Promise.resolve(null);
    const load = import('./engine/zdr_engine.js').then(async (engine) => {
      await engine.default({ module_or_path: (await compiled) ?? url });
      return engine;
    });
    load.catch(() => {
      if (engineLoad === load) engineLoad = null;
    });
    engineLoad = load;
  }
  return engineLoad;
};
let ready = false;
let markReady;
const whenReady = new Promise((resolve) => (markReady = resolve));

// The service module's functions exist once it is instantiated: the loader
// is handed over right after, by either way of initialising it.
// The glue's own init runs once per page (a second call, the <zdr-embed>
// element's or the page's, gets the first one's instance; a failed start
// may be tried again).
export default async function init(moduleOrPath) {
  const output = await initService(moduleOrPath);
  __setEngineLoader(loadEngine);
  ready = true;
  markReady();
  return output;
}

export function initSync(module) {
  const output = initServiceSync(module);
  __setEngineLoader(loadEngine);
  ready = true;
  markReady();
  return output;
}

function started(name) {
  if (typeof document === 'undefined') {
    throw new Error(`zdr-embed: ${name}() draws in a browser page, and there is no document here: call it from code that runs in the browser (React's useEffect, Vue's onMounted, Svelte's onMount), not while rendering on the server`);
  }
  if (!ready) {
    throw new Error(`zdr-embed: ${name}() was called before the module was ready: \`await init()\` (the package's default export) first, once per page`);
  }
}

// A card drawn in the page (mode "local") needs the engine: its fetch starts
// here, before the service module reads the options (docs/benchmarks.md,
// "Small cards first", change 10). Read from
// data properties only, so no page code runs twice: a getter's mode is left
// to the service module, which reads every option once and words its errors.
const own = (object, key) => {
  try {
    return Object.getOwnPropertyDescriptor(object, key)?.value;
  } catch {
    return undefined; // not an object, or a Proxy that threw: the service module says so
  }
};
const drawsHere = (options) => own(options, 'mode') === 'local';
const fetchEngine = () => loadEngine().catch(() => {}); // reported by the card, which asks again

// The card's kind names the chunk of the engine that draws it: fetched and
// compiled beside the core, not once the core has read the card (the
// loader compiles each chunk once). Only a first look: the engine reads
// the card and loads what it needs whatever this found (an unknown kind,
// or none, fetches nothing here).
const fetchKind = (options) => {
  const kind = own(own(own(options, 'visualizationData'), 'viz_config'), 'viz_component_type');
  if (typeof kind !== 'string') return;
  import('./engine/__wasm_split.js').then((chunks) => chunks.prefetch(kind)).catch(() => {});
};

export function render(options) {
  started('render');
  if (drawsHere(options)) {
    fetchEngine();
    fetchKind(options);
  }
  return serviceRender(options);
}

// The kinds looked at ahead in renderMultiple: the chunks of cards past it
// are fetched when the engine reads them, as without this look.
const KINDS_AHEAD = 64;

export function renderMultiple(configs) {
  started('renderMultiple');
  // Up to the first entry that is not an object, as the service module
  // reads them: a length the array only claims costs nothing.
  const count = Array.isArray(configs) ? own(configs, 'length') : 0;
  let local = 0;
  for (let i = 0; i < count && local < KINDS_AHEAD; i++) {
    const options = own(configs, i);
    if (options === null || typeof options !== 'object') break;
    if (drawsHere(options)) {
      if (local++ === 0) fetchEngine();
      fetchKind(options);
    }
  }
  return serviceRenderMultiple(configs);
}

// Before init() has resolved, preload() starts fetching and compiling the
// engine at once, beside the service module, and its promise settles once
// both are ready: a page that draws cards itself calls it first thing.
// Each group of card kinds is a chunk of the engine, fetched with the
// page's first card of the group: preload() fetches every chunk, so that
// no card drawn afterwards waits or makes a request (as before the split);
// preload(['timeseries', 'bar']) fetches only those kinds' chunks. A name
// that is no card type rejects the promise with an Error that names it.
export function preload(kinds) {
  let engineReady;
  if (ready || typeof document === 'undefined') {
    started('preload');
    engineReady = servicePreload();
  } else {
    fetchEngine(); // a failure is reported by the service's preload below, which tries again
    engineReady = whenReady.then(() => servicePreload());
  }
  return engineReady.then(() => loadEngine()).then((engine) => engine.loadKinds(kinds ?? null));
}

export { EmbedHandle };
