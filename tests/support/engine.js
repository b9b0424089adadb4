// The engine loader as a page registers it, for the browser tests. The
// namespace is the real engine: its mountLocal is the engine crate's own
// export, linked into the test module and handed in from Rust.

// A loader whose promise the test settles: it counts its calls, and
// `arrive()` / `fail(message)` settle every load it started.
export function controlledLoader(mountLocal) {
  const state = { calls: 0, pending: [] };
  state.loader = () => {
    state.calls += 1;
    return new Promise((resolve, reject) => state.pending.push({ resolve, reject }));
  };
  state.arrive = () => {
    for (const { resolve } of state.pending.splice(0)) resolve(namespace(mountLocal));
  };
  state.fail = (message) => {
    for (const { reject } of state.pending.splice(0)) reject(new TypeError(message));
  };
  return state;
}

// A module namespace as `import()` gives it: `default` is the engine's init.
export function namespace(mountLocal) {
  let initialised = 0;
  return {
    default: () => {
      initialised += 1;
      return Promise.resolve();
    },
    mountLocal,
    get initialised() {
      return initialised;
    },
  };
}

export function readyLoader(mountLocal) {
  const ns = namespace(mountLocal);
  return () => Promise.resolve(ns);
}
