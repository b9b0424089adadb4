// Helpers for tests/web.rs: building option objects and watching the page
// are plainer in JS than through Reflect calls.

export function freshContainer(id) {
  document.getElementById(id)?.remove();
  const div = document.createElement('div');
  div.id = id;
  document.body.appendChild(div);
  return div;
}

export function sampleData(title) {
  return {
    viz_config: { title, x_label: 'Month' },
    data: [
      { x: 'Jan', y: 10 },
      { x: 'Feb', y: 20.5 },
      { x: 'Mär & "Q"', y: -3 },
    ],
  };
}

export function baseOptions(containerId, extra) {
  return Object.assign(
    {
      containerId,
      // The test runner's own origin answers the post, so the frame really loads.
      serviceUrl: location.origin + '/',
      cardId: 'card-1',
      visualizationData: sampleData('Monthly sales'),
    },
    extra || {},
  );
}

export function without(object, key) {
  const copy = Object.assign({}, object);
  delete copy[key];
  return copy;
}

export function cyclicData() {
  const data = { viz_config: { title: 'cycle' }, data: [] };
  data.data.push(data);
  return data;
}

export function bigintData() {
  return { viz_config: { title: 'big' }, data: [{ x: 'a', y: 10n }] };
}

export function throwingGetterOptions(containerId) {
  const options = baseOptions(containerId);
  Object.defineProperty(options, 'cardId', {
    get() {
      throw new RangeError('hostile getter');
    },
  });
  return options;
}

export function formsInDocument() {
  return document.querySelectorAll('form').length;
}

// Makes every form.submit() throw until the returned function is called.
export function breakFormSubmit() {
  const original = HTMLFormElement.prototype.submit;
  HTMLFormElement.prototype.submit = function () {
    throw new DOMException('submission blocked by test', 'SecurityError');
  };
  return () => {
    HTMLFormElement.prototype.submit = original;
  };
}

// Records console.error calls until the returned object's restore() is called.
export function captureConsoleError() {
  const original = console.error;
  const calls = [];
  console.error = (...args) => calls.push(args);
  return {
    count: () => calls.length,
    firstMessage: () => (calls[0] && calls[0][0] && calls[0][0].message) || '',
    firstText: () => (calls[0] ? calls[0].map(String).join(' ') : ''),
    restore: () => {
      console.error = original;
    },
  };
}

// A callback recorder usable as onLoad/onError.
export function recorder() {
  const calls = [];
  const fn = (arg) => calls.push(arg);
  fn.count = () => calls.length;
  fn.last = () => calls[calls.length - 1];
  return fn;
}

export function errorCode(error) {
  return error && error.code;
}

export function isError(value) {
  return value instanceof Error;
}

// postMessage mode against a stand-in shell. The test runner's own origin is
// the "service", so the frame is same-origin and the test can act inside it.
// Messages must be posted by code of the frame's realm (its Function), or
// their source would be this window instead of the frame's.

// Resolves once the frame shows a loaded document other than about:blank.
export async function frameLoaded(iframe) {
  for (let i = 0; i < 400; i += 1) {
    try {
      const doc = iframe.contentDocument;
      if (doc && doc.URL !== 'about:blank' && doc.readyState === 'complete') return;
    } catch {
      // Not reachable yet.
    }
    await new Promise((ok) => setTimeout(ok, 10));
  }
  throw new Error('the frame did not load');
}

// Installs a recorder of the messages the frame receives; returns the stand-in.
export function fakeShell(iframe) {
  const frame = iframe.contentWindow;
  frame.heard = [];
  frame.addEventListener('message', (event) => frame.heard.push({ origin: event.origin, data: event.data }));
  const say = new frame.Function('message', 'parent.postMessage(message, "*");');
  return {
    say: (message) => say(message),
    heardCount: () => frame.heard.length,
    heard: (index) => frame.heard[index],
    sameDocument: () => Array.isArray(iframe.contentWindow.heard),
  };
}

// The same message, posted by this window itself (not the frame).
export function sayFromPage(message) {
  window.postMessage(message, '*');
}

export function message(type, fields) {
  return Object.assign({ type, version: 1 }, fields || {});
}
