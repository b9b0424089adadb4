// zdr-embed/vue: <ZdrChart :visualization-data="…" mode="local" /> for
// Vue 3. Its props are render's options (less the container, which is its
// own <div>); it emits `load` (the canvas or frame, each time new data are
// shown), `error` and `view-change`. New data, or data changed in place,
// update the card (the same canvas or frame); a change of an option that
// shapes the card (mode, cardId, size, theme…) draws it anew; unmounting
// destroys it. A template ref's handle() gives the card's EmbedHandle.
// Rendered on the server it is an empty <div>.
//
// Copied into pkg/ by scripts/build.sh; types in vue.d.ts.
import { defineComponent, getCurrentInstance, h, onBeforeUnmount, onMounted, ref, toRaw, watch } from 'vue';
import { mount, shapeOf } from './components.js';

const text = [String, Number];

export const ZdrChart = defineComponent({
  name: 'ZdrChart',
  props: {
    visualizationData: { type: Object, required: true },
    mode: String,
    serviceUrl: String,
    cardId: String,
    embedMode: String,
    timeoutMs: Number,
    width: text,
    height: text,
    // Absent is neither true nor false: the card's own, or the reader's.
    darkMode: { type: Boolean, default: undefined },
    syncGroup: String,
    syncZoom: { type: Boolean, default: undefined },
    menu: { type: Boolean, default: undefined },
  },
  emits: ['load', 'error', 'view-change'],
  setup(props, { emit, expose }) {
    const box = ref(null);
    const self = getCurrentInstance();
    const listening = (name) => Boolean(self?.vnode.props?.[name]);
    let life = null;
    let handle = null;
    const options = () => ({
      ...props,
      visualizationData: toRaw(props.visualizationData),
      onLoad: (element) => emit('load', element),
      // Without a listener, errors are logged as render logs them.
      onError: listening('onError') ? (error) => emit('error', error) : undefined,
      onViewChange: (view) => emit('view-change', view),
    });
    const start = () => {
      life = mount(box.value, options, (card) => (handle = card));
    };
    onMounted(start);
    watch(
      () => shapeOf(props),
      () => {
        life?.destroy();
        start();
      },
    );
    watch(
      () => props.visualizationData,
      (data) => life?.update(toRaw(data)),
      { deep: true },
    );
    onBeforeUnmount(() => {
      life?.destroy();
      life = null;
    });
    expose({ handle: () => handle });
    return () => h('div', { ref: box });
  },
});
