// The fallback table for any game without its own renderer: the view, readably, and one
// button per legal action. The log names what changed between two views.
import { h, jsonText, sameJson } from "../js/common.js";
import { _ } from "../js/i18n.js";

const SKIP = new Set(["choices", "options", "game", "step"]);

function perSeat(value, players) {
  return Array.isArray(value) && value.length === players && value.every((v) => v === null || typeof v !== "object");
}

function valueNode(value) {
  if (value === null || typeof value !== "object") return document.createTextNode(jsonText(value));
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== "object")) {
    return document.createTextNode(value.length ? value.map(jsonText).join(", ") : "—");
  }
  const list = h("dl", { class: "kv" });
  for (const [key, inner] of Object.entries(value)) {
    list.appendChild(h("dt", {}, key.replaceAll("_", " ")));
    list.appendChild(h("dd", {}, valueNode(inner)));
  }
  return list;
}

function render(context) {
  const { view, table, board, controls, legal, act, seat } = context;
  const players = table.players;
  const seatKeys = Object.keys(view).filter((key) => !SKIP.has(key) && perSeat(view[key], players));
  if (seatKeys.length) {
    const grid = h("div", { class: "player-grid" });
    for (let p = 0; p < players; p += 1) {
      grid.appendChild(
        h(
          "div",
          { class: `player${p === seat ? " me" : ""}` },
          h("div", { class: "name" }, table.seats[p].name),
          h("dl", { class: "kv" }, seatKeys.map((key) => [h("dt", {}, key.replaceAll("_", " ")), h("dd", {}, jsonText(view[key][p]))])),
        ),
      );
    }
    board.appendChild(grid);
  }
  const rest = {};
  for (const [key, value] of Object.entries(view)) {
    if (!SKIP.has(key) && !seatKeys.includes(key)) rest[key] = value;
  }
  board.appendChild(h("div", { class: "generic-view panel", style: { background: "rgba(0,0,0,0.2)", color: "inherit" } }, valueNode(rest)));
  if (legal.length) {
    controls.appendChild(h("h3", {}, _("Your move")));
    controls.appendChild(
      h("div", { class: "choices" }, legal.map((action) => h("button", { onclick: () => act(action), "data-action": JSON.stringify(action) }, jsonText(action)))),
    );
  }
}

function describe(previous, next) {
  const lines = [];
  for (const [key, value] of Object.entries(next)) {
    if (SKIP.has(key) || sameJson(previous[key], value)) continue;
    const text = `${key.replaceAll("_", " ")}: ${jsonText(previous[key])} → ${jsonText(value)}`;
    lines.push(text.length > 160 ? `${text.slice(0, 157)}…` : text);
  }
  return lines;
}

export default { render, describe, label: jsonText };
