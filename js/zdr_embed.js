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
import initService, {
  __setEngineLoader,
  EmbedHandle,
  initSync as initServiceSync,
  preload,
  render,
  renderMultiple,
} from './service/zdr_embed_service.js';

const loadEngine = () => import('./engine/zdr_engine.js');

// The service module's functions exist once it is instantiated: the loader
// is handed over right after, by either way of initialising it.
export default async function init(moduleOrPath) {
  const output = await initService(moduleOrPath);
  __setEngineLoader(loadEngine);
  return output;
}

export function initSync(module) {
  const output = initServiceSync(module);
  __setEngineLoader(loadEngine);
  return output;
}

export { EmbedHandle, preload, render, renderMultiple };
