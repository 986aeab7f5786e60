// Draws one of catch-a-dragon.js's dice per colour name under a minimal DOM (node has none) and
// prints, as JSON, each die's background colour and its class (which says the ink of its number).
// Usage: node dice_ink.mjs '["gold", "green", ...]'
class FakeNode {
  constructor(text) { this.children = []; this.text = text ?? ""; this.style = {}; this.attributes = {}; }
  appendChild(child) { this.children.push(child); return child; }
  setAttribute(name, value) { this.attributes[name] = value; }
  addEventListener() {}
  get textContent() { return this.text + this.children.map((c) => c.textContent).join(""); }
}
globalThis.Node = FakeNode;
globalThis.window = globalThis.window || {}; // i18n.js reads window.GB_I18N (none here: English)
globalThis.document = {
  createElement: () => new FakeNode(),
  createElementNS: () => new FakeNode(),
  createTextNode: (text) => new FakeNode(text),
};
const names = JSON.parse(process.argv[2]);
const { die } = await import(new URL("../../../src/gamebag/web/static/games/catch-a-dragon.js", import.meta.url));
const view = { faces: names };
process.stdout.write(JSON.stringify(names.map((name) => {
  const node = die(name, view);
  return { name, background: node.style.background, class: node.attributes.class, number: node.textContent };
})));
