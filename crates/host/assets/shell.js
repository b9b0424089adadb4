// The postMessage shell's bootstrap: loads the widget's engine from this host
// and hands the page to it. Everything else (origin checks, the protocol,
// drawing) happens in WebAssembly: see docs/postmessage-protocol.md.
import init, { startShell } from "/node_modules/zdr-embed/pkg/zdr_embed.js";

const page = document.documentElement.dataset;
try {
  await init();
  startShell({
    parentOrigin: page.parentOrigin,
    containerId: "zdr-chart",
    darkMode: page.darkMode === undefined ? undefined : page.darkMode === "true",
    autoHeight: page.height === "auto",
  });
} catch (error) {
  // Without a shell the parent never hears "zdr:ready" and reports its timeout.
  console.error("zdr-embed shell:", error);
}
