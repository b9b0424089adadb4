// webpack 5 needs nothing for zdr-embed: it turns the modules'
// new URL('…_bg.wasm', import.meta.url) into assets and the engine's
// import() into a chunk of its own. Top-level await: an ES module output.
export default {
  mode: 'production',
  entry: './index.js',
  experiments: { outputModule: true },
  output: { module: true, filename: 'main.js', clean: true },
};
