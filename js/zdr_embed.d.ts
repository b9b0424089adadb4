// Types of the package's entry (zdr_embed.js): those of the service module,
// less the loader hook that the entry itself sets.
export type * from './service/zdr_embed_service.js';
export {
  default,
  EmbedHandle,
  initSync,
  render,
  renderMultiple,
} from './service/zdr_embed_service.js';

/**
 * Fetches and compiles the engine (local drawing, toPNG/toSVG) ahead of the
 * first card drawn in the page, with the code of every card kind; with
 * `kinds` (`viz_component_type` values, e.g. `['timeseries', 'bar']`), only
 * that of those kinds (the rest comes with the first card of each). An
 * unknown name rejects.
 */
export function preload(kinds?: string[]): Promise<void>;
