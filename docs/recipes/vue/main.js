import { createApp, h, ref } from 'vue';
import ZdrChart from './ZdrChart.vue';

createApp({
  setup() {
    const q4 = ref(180);
    const shown = ref(true);
    const data = () => ({
      viz_config: { title: `Sales, Q4 ${q4.value}`, viz_component_type: 'bar' },
      data: [{ x: 'Q1', y: 120 }, { x: 'Q2', y: 150 }, { x: 'Q3', y: 90 }, { x: 'Q4', y: q4.value }],
    });
    return () => [
      h('button', { id: 'more', onClick: () => (q4.value += 40) }, 'More in Q4'),
      h('button', { id: 'toggle', onClick: () => (shown.value = !shown.value) }, 'Show or hide'),
      shown.value ? h(ZdrChart, { data: data() }) : null,
    ];
  },
}).mount('#root');
