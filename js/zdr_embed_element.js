// "zdr-embed/element": registers the <zdr-embed> element (js/element.js)
// on the package's entry, which it initialises itself: a page imports this
// module and writes elements, with no `await init()` of its own.
import init, { preload, render } from './zdr_embed.js';
import { defineZdrEmbed } from './element.js';

defineZdrEmbed({ render, ready: () => init(), preload });
