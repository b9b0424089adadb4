import init, { render } from 'zdr-embed';

await init();
render({
  containerId: 'card',
  mode: 'local',
  height: '360px',
  visualizationData: {
    viz_config: { title: 'Sales', viz_component_type: 'bar' },
    data: [{ x: 'Q1', y: 120 }, { x: 'Q2', y: 150 }, { x: 'Q3', y: 90 }, { x: 'Q4', y: 180 }],
  },
});
