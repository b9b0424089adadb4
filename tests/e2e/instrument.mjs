// In-page instrumentation for local.test.mjs, installed with
// context.addInitScript(instrument) so it runs before the page and the widget.
// Not a test file itself. Everything lives on `window.__t`:
//
// - draws: every draw of the widget begins with one fill of the whole canvas
//   (the background), so full-canvas fillRect calls count draws, per canvas;
// - live event listeners, ResizeObservers that still observe something, and
//   pending animation frames, so a test can see what `destroy()` leaves;
// - pixel statistics of a canvas, and frame waiting.
export function instrument() {
  const t = {
    draws: new WeakMap(),
    allDraws: 0,
    listeners: [],
    observing: new Set(),
    frames: new Set(),
  };
  window.__t = t;

  // Draws: a fillRect that covers the whole backing store, whatever the transform.
  const fillRect = CanvasRenderingContext2D.prototype.fillRect;
  CanvasRenderingContext2D.prototype.fillRect = function (x, y, w, h) {
    const canvas = this.canvas;
    const m = this.getTransform();
    const near = (a, b) => Math.abs(a - b) < 1.5;
    if (
      canvas &&
      near(m.a * x + m.e, 0) &&
      near(m.d * y + m.f, 0) &&
      m.a * w >= canvas.width - 1.5 &&
      m.d * h >= canvas.height - 1.5
    ) {
      t.draws.set(canvas, (t.draws.get(canvas) || 0) + 1);
      t.allDraws += 1;
    }
    return fillRect.call(this, x, y, w, h);
  };
  t.drawsOf = (canvas) => t.draws.get(canvas) || 0;

  // Event listeners still attached (added and not removed), on any target.
  const capture = (options) => (typeof options === 'boolean' ? options : !!options?.capture);
  const add = EventTarget.prototype.addEventListener;
  const remove = EventTarget.prototype.removeEventListener;
  EventTarget.prototype.addEventListener = function (type, fn, options) {
    const c = capture(options);
    if (fn && !t.listeners.some((l) => l.target === this && l.type === type && l.fn === fn && l.capture === c)) {
      t.listeners.push({ target: this, type, fn, capture: c });
    }
    return add.call(this, type, fn, options);
  };
  EventTarget.prototype.removeEventListener = function (type, fn, options) {
    const c = capture(options);
    t.listeners = t.listeners.filter(
      (l) => !(l.target === this && l.type === type && l.fn === fn && l.capture === c),
    );
    return remove.call(this, type, fn, options);
  };
  // The deprecated MediaQueryList API, in case the widget uses it.
  if (window.MediaQueryList) {
    const addListener = MediaQueryList.prototype.addListener;
    const removeListener = MediaQueryList.prototype.removeListener;
    MediaQueryList.prototype.addListener = function (fn) {
      t.listeners.push({ target: this, type: 'change(addListener)', fn, capture: false });
      return addListener.call(this, fn);
    };
    MediaQueryList.prototype.removeListener = function (fn) {
      t.listeners = t.listeners.filter((l) => !(l.target === this && l.fn === fn));
      return removeListener.call(this, fn);
    };
  }
  t.listenerSummary = () => t.listeners.map((l) => `${l.target?.constructor?.name}:${l.type}`);

  // ResizeObservers observing at least one element.
  const Observer = window.ResizeObserver;
  window.ResizeObserver = class extends Observer {
    constructor(callback) {
      super(callback);
      this.__targets = new Set();
    }
    observe(target, options) {
      super.observe(target, options);
      this.__targets.add(target);
      t.observing.add(this);
    }
    unobserve(target) {
      super.unobserve(target);
      this.__targets.delete(target);
      if (!this.__targets.size) t.observing.delete(this);
    }
    disconnect() {
      super.disconnect();
      this.__targets.clear();
      t.observing.delete(this);
    }
  };

  // Animation frames requested and neither run nor cancelled.
  const request = window.requestAnimationFrame.bind(window);
  const cancel = window.cancelAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => {
    const id = request((time) => {
      t.frames.delete(id);
      callback(time);
    });
    t.frames.add(id);
    return id;
  };
  window.cancelAnimationFrame = (id) => {
    t.frames.delete(id);
    cancel(id);
  };
  t.live = () => ({
    listeners: t.listeners.length,
    observing: t.observing.size,
    frames: t.frames.size,
  });

  /** Resolves after `n` animation frames (not counted in `frames`). */
  t.nextFrames = (n = 1) =>
    new Promise((ok) => {
      const step = () => (n-- <= 0 ? ok() : request(step));
      request(step);
    });

  t.pixels = (canvas) =>
    canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;

  /** Distinct colours, pixels unlike the top-left one (the background) and their bounds. */
  t.stats = (canvas) => {
    const data = t.pixels(canvas);
    const colours = new Set();
    const bg = [data[0], data[1], data[2], data[3]];
    let marked = 0;
    let [left, top, right, bottom] = [Infinity, Infinity, -1, -1];
    for (let i = 0, p = 0; i < data.length; i += 4, p += 1) {
      colours.add(((data[i] << 24) | (data[i + 1] << 16) | (data[i + 2] << 8) | data[i + 3]) >>> 0);
      const d =
        Math.abs(data[i] - bg[0]) + Math.abs(data[i + 1] - bg[1]) + Math.abs(data[i + 2] - bg[2]);
      if (d > 24) {
        marked += 1;
        const x = p % canvas.width;
        const y = (p - x) / canvas.width;
        left = Math.min(left, x);
        right = Math.max(right, x);
        top = Math.min(top, y);
        bottom = Math.max(bottom, y);
      }
    }
    return {
      width: canvas.width,
      height: canvas.height,
      colours: colours.size,
      marked,
      share: marked / (canvas.width * canvas.height),
      background: bg,
      bounds: { left, top, right, bottom },
    };
  };

  /** Share of pixels that differ between two pixel arrays of the same size. */
  t.diff = (a, b) => {
    if (a.length !== b.length) return 1;
    let changed = 0;
    for (let i = 0; i < a.length; i += 4) {
      if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2] || a[i + 3] !== b[i + 3]) {
        changed += 1;
      }
    }
    return changed / (a.length / 4);
  };
}
