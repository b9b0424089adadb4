// Types of the package's entry (zdr_embed.js): those of the service module,
// less the loader hook that the entry itself sets.
export type * from './service/zdr_embed_service.js';
export {
  default,
  EmbedHandle,
  initSync,
  preload,
  render,
  renderMultiple,
} from './service/zdr_embed_service.js';
