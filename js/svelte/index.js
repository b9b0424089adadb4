// zdr-embed/svelte: the component and the action it is made of. The
// component is Svelte source: an app's Svelte compiler compiles it, as it
// does the app's own (the package's "svelte" export condition).
export { default as ZdrChart } from './ZdrChart.svelte';
export { zdrChart } from './action.js';
