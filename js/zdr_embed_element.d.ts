// Types of "zdr-embed/element": the <zdr-embed> element it registers.
import type { EmbedHandle, VisualizationData } from './zdr_embed.js';

/** `<zdr-embed service-url card-id mode embed-mode dark-mode width height timeout-ms>`. */
export interface ZdrEmbedElement extends HTMLElement {
  /** The card's data; when unset, the JSON of a child `<script type="application/json">`. Setting it redraws. */
  visualizationData: VisualizationData | undefined;
  /** render()'s handle once the card is shown, else null. */
  readonly handle: EmbedHandle | null;
}

/** Dispatched (bubbling, composed) each time the card has been shown: its iframe or canvas. */
export type ZdrLoadEvent = CustomEvent<{ element: HTMLIFrameElement | HTMLCanvasElement }>;
/** Dispatched (bubbling, composed) when the card cannot be shown, with render()'s Error. */
export type ZdrErrorEvent = CustomEvent<{ error: Error }>;

declare global {
  interface HTMLElementTagNameMap {
    'zdr-embed': ZdrEmbedElement;
  }
  interface HTMLElementEventMap {
    'zdr-load': ZdrLoadEvent;
    'zdr-error': ZdrErrorEvent;
  }
}
