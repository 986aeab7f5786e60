// Runs a dice game's renderer (pig.js, catch-a-dragon.js) under a minimal DOM with a language's
// translation bundle loaded first (as a page loads /i18n/<language>.js), and prints as JSON every
// text a seat's page would show: the board and the controls (text, aria-label, title), the log lines
// told between consecutive views, the labels of the legal moves, the guide, the hint, the player's
// own line, the end's explanation and the rulebook's win.
// Usage: node dice_words.mjs <input.json>, holding {bundle, script, views, legal, seat, table, result}.
import { readFileSync } from "node:fs";

class FakeNode {
  constructor(tag, text) {
    this.tag = tag; this.children = []; this.text = text ?? ""; this.style = {}; this.attrs = {}; this.dataset = {};
    this.classList = { toggle() {} };
  }
  appendChild(child) { this.children.push(child); return child; }
  setAttribute(key, value) { this.attrs[key] = value; }
  addEventListener() {}
  get textContent() { return this.text + this.children.map((c) => c.textContent).join(""); }
  set textContent(value) { this.text = String(value); this.children = []; }
  *walk() { yield this; for (const child of this.children) yield* child.walk(); }
}
globalThis.Node = FakeNode;
globalThis.document = {
  createElement: (tag) => new FakeNode(tag),
  createElementNS: (ns, tag) => new FakeNode(tag),
  createTextNode: (text) => new FakeNode("#text", text),
};
globalThis.window = globalThis;
const input = JSON.parse(readFileSync(process.argv[2], "utf8"));
(0, eval)(readFileSync(input.bundle, "utf8")); // sets window.GB_I18N before i18n.js reads it
const renderer = (await import(new URL(`../../../src/gamebag/web/static/games/${input.script}`, import.meta.url))).default;
const views = input.views;
const names = input.table.seats.map((s) => s.name);
const texts = [];
const text = (value) => { if (value !== null && value !== undefined && value !== "") texts.push(typeof value === "string" ? value : value.text); };
for (const [index, view] of views.entries()) {
  const board = new FakeNode("div");
  const controls = new FakeNode("div");
  const legal = index === views.length - 1 ? input.legal : [];
  const context = { view, table: input.table, seat: input.seat, legal, board, controls, act: () => {}, animate: false, names };
  renderer.render(context);
  for (const node of [...board.walk(), ...controls.walk()]) {
    text(node.text.trim());
    for (const key of ["aria-label", "title"]) if (node.attrs[key]) text(node.attrs[key]);
  }
  if (index > 0) for (const line of renderer.describe(views[index - 1], view, context)) text(line);
  for (const action of legal) text(renderer.label(action, view));
  for (const line of renderer.howToPlay(context)) text(line);
  text(renderer.hint(context));
  text(renderer.privateInfo(context).textContent);
  text(renderer.rulebookWin(context));
  if (input.result && index === views.length - 1) text(renderer.explainEnd(context, input.result));
}
process.stdout.write(JSON.stringify(texts));
