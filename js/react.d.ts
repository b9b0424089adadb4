// Types of zdr-embed/react (react.js).
import type { CSSProperties, ForwardRefExoticComponent, RefAttributes } from 'react';
import type { AutoOptions, EmbedHandle, LocalOptions, ServiceOptions } from './zdr_embed.js';

/** render's options less the container (the component's own <div>), and that <div>'s class and style. */
export type ZdrChartProps = (ServiceOptions | LocalOptions | AutoOptions) & {
  className?: string;
  style?: CSSProperties;
};

/**
 * One card. A new `visualizationData` object updates it in place; a change of an option that
 * shapes it (mode, serviceUrl, cardId, embedMode, timeoutMs, width, height, darkMode, syncGroup,
 * syncZoom, menu) draws it anew; unmounting destroys it. The ref is its EmbedHandle once drawn.
 */
export declare const ZdrChart: ForwardRefExoticComponent<ZdrChartProps & RefAttributes<EmbedHandle | null>>;
