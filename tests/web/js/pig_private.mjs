// Runs pig.js's privateInfo under a minimal DOM (node has none) and prints each seat's line as JSON.
// Usage: node pig_private.mjs '<view JSON>' '<table JSON>' seat
class FakeNode {
  constructor(text) { this.children = []; this.text = text ?? ""; this.style = {}; }
  appendChild(child) { this.children.push(child); return child; }
  setAttribute() {}
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
const [view, table, seat] = [JSON.parse(process.argv[2]), JSON.parse(process.argv[3]), Number(process.argv[4])];
const renderer = (await import(new URL("../../../src/gamebag/web/static/games/pig.js", import.meta.url))).default;
process.stdout.write(JSON.stringify(renderer.privateInfo({ view, table, seat }).textContent));
