// Types of zdr-embed/svelte (index.js).
import type { Component } from 'svelte';
import type { ActionReturn } from 'svelte/action';
import type { AutoOptions, EmbedHandle, LocalOptions, ServiceOptions } from '../zdr_embed.js';

/** render's options less the container (the element). */
export type ZdrChartOptions = ServiceOptions | LocalOptions | AutoOptions;

/** The component's props: the options, and its <div>'s class and style. */
export type ZdrChartProps = ZdrChartOptions & { class?: string; style?: string };

/**
 * One card. New data update it in place; a change of an option that shapes it draws it anew;
 * unmounting destroys it. `bind:this` gives `handle()`, the card's EmbedHandle once drawn.
 */
export declare const ZdrChart: Component<ZdrChartProps, { handle(): EmbedHandle | null }>;

/** The action the component is made of, for an element of one's own. */
export declare function zdrChart(
  node: HTMLElement,
  options: ZdrChartOptions & { onHandle?: (handle: EmbedHandle | null) => void },
): ActionReturn<ZdrChartOptions & { onHandle?: (handle: EmbedHandle | null) => void }>;
