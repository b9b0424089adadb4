// Types of the drop-in script (pkg/zdr_embed_widget.js, "zdr-embed/widget"):
// a classic script that defines window.ServiceZDREmbed and registers the
// <zdr-embed> element. Import it for its side effect; the types say what
// the page then has.
import type { EmbedHandle, RenderOptions } from './zdr_embed.js';
import type {} from './zdr_embed_element.js';

/** What the drop-in script defines: the service's widget, as its documentation names it. */
export interface ServiceZDREmbedApi {
  render(options: RenderOptions): EmbedHandle;
  renderMultiple(optionsList: RenderOptions[]): EmbedHandle[];
  /** Fetches and compiles the engine module (engine/zdr_engine.js beside the script) now. */
  /** The engine, with every card kind's code, or only that of `kinds`. */
  preload(kinds?: string[]): Promise<void>;
  readonly version: string;
  readonly engine: 'zdr-embed';
}

declare global {
  interface Window {
    ServiceZDREmbed: ServiceZDREmbedApi;
  }
  // eslint-disable-next-line no-var
  var ServiceZDREmbed: ServiceZDREmbedApi;
}
