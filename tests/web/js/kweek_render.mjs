// Runs eigen-kweek.js under a minimal DOM (node has none) and prints what a seat's page shows as
// JSON: the board's and the move panel's text, the buttons (action and words), the pictures drawn,
// the log lines told between consecutive views, and the "How to play" guide.
// Usage: node kweek_render.mjs <input.json>, the input holding {views, legal, seat, table, result}.
import { readFileSync } from "node:fs";

class FakeNode {
  constructor(tag, text) {
    this.tag = tag; this.children = []; this.text = text ?? ""; this.style = {}; this.attrs = {}; this.dataset = {};
  }
  appendChild(child) { this.children.push(child); return child; }
  setAttribute(key, value) { this.attrs[key] = value; }
  addEventListener() {}
  get textContent() { return this.text + this.children.map((c) => c.textContent).join(""); }
  set textContent(value) { this.text = String(value); this.children = []; }
  *walk() { yield this; for (const child of this.children) yield* child.walk(); }
}
globalThis.Node = FakeNode;
// The page's words: English, or the language bundle (/i18n/<lang>.js) named by KWEEK_BUNDLE.
globalThis.window = {};
if (process.env.KWEEK_BUNDLE) new Function("window", readFileSync(process.env.KWEEK_BUNDLE, "utf8"))(globalThis.window);
globalThis.document = {
  createElement: (tag) => new FakeNode(tag),
  createElementNS: (ns, tag) => new FakeNode(tag),
  createTextNode: (text) => new FakeNode("#text", text),
};
const input = JSON.parse(readFileSync(process.argv[2], "utf8"));
const renderer = (await import(new URL("../../../src/gamebag/web/static/games/eigen-kweek.js", import.meta.url))).default;
const board = new FakeNode("div");
const controls = new FakeNode("div");
const views = input.views;
const view = views[views.length - 1];
const context = {
  view, table: input.table, seat: input.seat, legal: input.legal || [], result: input.result || null,
  board, controls, act: () => {}, animate: false, names: input.table.seats.map((s) => s.name),
};
renderer.render(context);
const nodes = [...board.walk(), ...controls.walk()];
const told = [];
for (let i = 1; i < views.length; i += 1) {
  for (const line of renderer.describe(views[i - 1], views[i], context)) told.push(typeof line === "string" ? line : line.text);
}
process.stdout.write(JSON.stringify({
  board: board.textContent,
  controls: controls.textContent,
  buttons: [...controls.walk()].filter((n) => n.tag === "button").map((n) => ({ action: JSON.parse(n.attrs["data-action"]), text: n.textContent })),
  cards: nodes.filter((n) => n.attrs["data-card"]).map((n) => n.attrs["data-card"]),
  plants: nodes.filter((n) => n.attrs["data-plant"]).map((n) => n.attrs["data-plant"]),
  told,
  labels: (input.labels || []).map((a) => renderer.label(a, view)),
  guide: typeof renderer.howToPlay === "function" ? renderer.howToPlay(context) : renderer.howToPlay,
}));
