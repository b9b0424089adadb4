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
