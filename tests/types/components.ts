// The framework components' types (compiled with usage.ts): their props
// are render's options less the container, and each gives the card's handle.
import { createElement, createRef } from 'react';
import type { ComponentProps } from 'svelte';
import type { EmbedHandle, VisualizationData } from 'zdr-embed';
import { ZdrChart as ReactChart } from 'zdr-embed/react';
import { ZdrChart as SvelteChart, zdrChart } from 'zdr-embed/svelte';
import { ZdrChart as VueChart } from 'zdr-embed/vue';

const data: VisualizationData = { viz_config: { title: 'Sales' }, data: [{ x: 'a', y: 1 }] };

// React: the options as props, a ref of the handle.
const handle = createRef<EmbedHandle | null>();
createElement(ReactChart, { mode: 'local', visualizationData: data, ref: handle, className: 'chart', onLoad: (canvas) => canvas.width });
createElement(ReactChart, { serviceUrl: 'https://charts.example.com', cardId: 'abc', visualizationData: data, embedMode: 'postmessage' });
// @ts-expect-error visualizationData is required
createElement(ReactChart, { mode: 'local' });
// @ts-expect-error the container is the component's own
createElement(ReactChart, { mode: 'local', visualizationData: data, container: document.body });

// Vue: the options as props, less the callbacks (events); handle() on a template ref.
type VueProps = InstanceType<typeof VueChart>['$props'];
const vueProps: VueProps = { mode: 'local', visualizationData: data, height: 360 };
void vueProps;
const vueHandle: EmbedHandle | null = ({} as InstanceType<typeof VueChart>).handle();
void vueHandle;
// @ts-expect-error mode is one of three
const wrongVue: VueProps = { mode: 'elsewhere', visualizationData: data };
void wrongVue;

// Svelte: the component's props, and the action's options with onHandle.
const svelteProps: ComponentProps<typeof SvelteChart> = { mode: 'local', visualizationData: data, class: 'chart' };
void svelteProps;
const action = zdrChart(document.createElement('div'), { mode: 'local', visualizationData: data, onHandle: (card) => card?.toCSV() });
action.update?.({ mode: 'local', visualizationData: data });
action.destroy?.();
// @ts-expect-error visualizationData is required
zdrChart(document.createElement('div'), { mode: 'local' });
