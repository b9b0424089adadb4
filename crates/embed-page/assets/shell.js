// The postMessage shell's bootstrap: imports the widget's engine module (and
// nothing else: not the service module) from the address the host wrote into
// the page (its --engine-url, a path on this host), initialises it and hands
// the page to it. Everything else (origin checks, the protocol, drawing)
// happens in WebAssembly: see docs/postmessage-protocol.md.
const page = document.documentElement.dataset;
try {
  if (!page.engine) throw new Error("the page names no engine (data-engine)");
  const engine = await import(page.engine);
  // The engine's glue finds its .wasm beside itself (import.meta.url).
  await engine.default();
  engine.startShell({
    parentOrigin: page.parentOrigin,
    containerId: "zdr-chart",
    darkMode: page.darkMode === undefined ? undefined : page.darkMode === "true",
    autoHeight: page.height === "auto",
  });
} catch (error) {
  // Without a shell the parent never hears "zdr:ready" and reports its timeout.
  console.error("zdr-embed shell:", error);
}
