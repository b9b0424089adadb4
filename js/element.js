// <zdr-embed>: a card as an HTML element, for pages without a build step
// (a CMS, plain HTML) and for frameworks that speak elements. Shared by the
// ES module (zdr_embed_element.js) and the drop-in script, which inlines
// this file (scripts/build-dropin.mjs): no imports, one export.
//
//   <zdr-embed mode="local" height="360px">
//     <script type="application/json">{"viz_config": {...}, "data": [...]}</script>
//   </zdr-embed>
//
// Attributes are render()'s options in kebab case; the data is the
// `visualizationData` property, else the JSON of a child
// <script type="application/json">. The card is drawn when the element is
// connected, updated when its data change, drawn anew when an attribute
// changes, destroyed when it is disconnected. `zdr-load` and `zdr-error`
// (bubbling, composed: they leave shadow roots) say how it went.
// The card lives in the element's own shadow root, so page styles do not
// reach it; nothing here sets a style attribute or runs inline script, so
// a strict CSP is kept.

const ATTRIBUTES = ['service-url', 'card-id', 'mode', 'embed-mode', 'dark-mode', 'width', 'height', 'timeout-ms'];

// `api`: { render(options), ready(): Promise, preload?(): Promise } of the
// module that registers it.
export function defineZdrEmbed(api) {
  if (typeof customElements === 'undefined' || customElements.get('zdr-embed')) return;

  class ZdrEmbedElement extends HTMLElement {
    static get observedAttributes() {
      return ATTRIBUTES;
    }

    constructor() {
      super();
      this._data = undefined;
      this._handle = null;
      this._key = '';
      this._queued = false;
      this._box = document.createElement('div');
      this._box.setAttribute('part', 'card');
      const root = this.attachShadow({ mode: 'open' });
      // A block, as a card is; through the CSSOM, which a strict style-src CSP allows.
      if (root.adoptedStyleSheets && typeof CSSStyleSheet === 'function' && CSSStyleSheet.prototype.replaceSync) {
        const sheet = new CSSStyleSheet();
        sheet.replaceSync(':host { display: block }');
        root.adoptedStyleSheets = [sheet];
      }
      root.append(this._box);
      // A child script's text changing (a framework re-rendering it) redraws.
      this._watch = new MutationObserver(() => this._data === undefined && this._queue());
    }

    /** The card's data; when unset, the JSON of a child <script type="application/json">. */
    get visualizationData() {
      if (this._data !== undefined) return this._data;
      const script = this.querySelector(':scope > script[type="application/json"]');
      if (!script) return undefined;
      try {
        return JSON.parse(script.textContent);
      } catch (error) {
        throw new Error(`zdr-embed: the <script type="application/json"> in <zdr-embed> is not JSON: ${error.message}`);
      }
    }

    set visualizationData(data) {
      this._data = data;
      this._queue();
    }

    /** The card's handle (render()'s EmbedHandle) once drawn, else null. */
    get handle() {
      return this._handle;
    }

    connectedCallback() {
      this._watch.observe(this, { childList: true, subtree: true, characterData: true });
      this._queue();
    }

    disconnectedCallback() {
      this._watch.disconnect();
      this._destroy();
    }

    attributeChangedCallback() {
      this._queue();
    }

    // Changes made together (attributes, then data) draw once.
    _queue() {
      if (this._queued) return;
      this._queued = true;
      queueMicrotask(() => {
        this._queued = false;
        if (this.isConnected) this._apply().catch((error) => this._fail(error));
      });
    }

    async _apply() {
      // A card drawn in the page needs the engine: asked for now, beside the
      // service module, as a page's own preload() would (a failed load is
      // the card's onError, from render). Its card's kind comes with the card: [].
      if (api.preload && this.getAttribute('mode') === 'local') api.preload([]).catch(() => {});
      await api.ready();
      if (!this.isConnected) return;
      const data = this.visualizationData;
      if (data === undefined) return this._destroy();
      const options = this._options();
      const key = JSON.stringify(options);
      if (this._handle && key === this._key) {
        this._handle.update(data);
        return;
      }
      this._destroy();
      this._key = key;
      this._handle = api.render({
        ...options,
        container: this._box,
        visualizationData: data,
        onLoad: (element) => this._emit('zdr-load', { element }),
        onError: (error) => this._fail(error),
      });
    }

    _options() {
      const options = {};
      const text = (name, key) => this.hasAttribute(name) && (options[key] = this.getAttribute(name));
      text('service-url', 'serviceUrl');
      text('card-id', 'cardId');
      text('mode', 'mode');
      text('embed-mode', 'embedMode');
      text('width', 'width');
      text('height', 'height');
      if (this.hasAttribute('dark-mode')) options.darkMode = this.getAttribute('dark-mode') !== 'false';
      if (this.hasAttribute('timeout-ms')) options.timeoutMs = Number(this.getAttribute('timeout-ms'));
      return options;
    }

    _destroy() {
      const handle = this._handle;
      this._handle = null;
      this._key = '';
      if (handle) handle.destroy();
    }

    _fail(error) {
      this._emit('zdr-error', { error: error instanceof Error ? error : new Error(String(error)) });
    }

    _emit(type, detail) {
      this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
    }
  }

  customElements.define('zdr-embed', ZdrEmbedElement);
}
