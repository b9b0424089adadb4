// Types of zdr-embed/vue (vue.js).
import type { DefineComponent } from 'vue';
import type { AutoOptions, ChartView, EmbedHandle, LocalOptions, ServiceOptions } from './zdr_embed.js';

type WithoutCallbacks<T> = T extends unknown ? Omit<T, 'onLoad' | 'onError' | 'onViewChange'> : never;

/** render's options less the container (the component's own <div>); the callbacks are events. */
export type ZdrChartProps = WithoutCallbacks<ServiceOptions | LocalOptions | AutoOptions>;

export type ZdrChartEvents = {
  /** The canvas or the frame, each time new data are shown. */
  load: (element: HTMLCanvasElement | HTMLIFrameElement) => void;
  /** Showing the card failed; without a listener the error is logged. */
  error: (error: Error) => void;
  'view-change': (view: ChartView) => void;
};

/** What a template ref of the component has. */
export interface ZdrChartExposed {
  /** The card's EmbedHandle once drawn, else null. */
  handle(): EmbedHandle | null;
}

/**
 * One card. New data, or data changed in place, update it; a change of an option that shapes it
 * draws it anew; unmounting destroys it.
 */
export declare const ZdrChart: DefineComponent<ZdrChartProps, ZdrChartExposed, {}, {}, {}, {}, {}, ZdrChartEvents>;
