// Small helpers shared by every page and game renderer (no framework, no build step).

/** Build an element: h("div", {class: "x", onclick: f}, "text", child, [more]). */
export function h(tag, attrs, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      element.addEventListener(key.slice(2), value);
    } else if (key === "style" && typeof value === "object") {
      Object.assign(element.style, value);
    } else if (value === true) {
      element.setAttribute(key, "");
    } else {
      element.setAttribute(key, String(value));
    }
  }
  appendAll(element, children);
  return element;
}

function appendAll(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) appendAll(element, child);
    else if (child instanceof Node) element.appendChild(child);
    else element.appendChild(document.createTextNode(String(child)));
  }
}

/** An SVG element (for tokens and small pictures). */
export function svg(tag, attrs, ...children) {
  const element = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs || {})) element.setAttribute(key, String(value));
  for (const child of children) if (child) element.appendChild(child);
  return element;
}

/** The display name of a seat, from the table's public facts. */
export function seatName(table, seat) {
  const entry = table && table.seats ? table.seats[seat] : null;
  return entry ? entry.name : `Seat ${seat + 1}`;
}

/** "A", "A and B", "A, B and C". */
export function listWords(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

export function plural(count, word, many) {
  return `${count} ${count === 1 ? word : many || `${word}s`}`;
}

/** A compact, readable text for any JSON value (actions of games without a renderer). */
export function jsonText(value) {
  if (value === null || value === undefined) return "none";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return value.length ? value.map(jsonText).join(" + ") : "nothing";
  return Object.entries(value)
    .map(([k, v]) => `${k}: ${jsonText(v)}`)
    .join(", ");
}

export function sameJson(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Load a game's renderer module, or the generic one when the game has none. */
export async function loadRenderer(gameId) {
  try {
    const module = await import(`/static/games/${encodeURIComponent(gameId)}.js`);
    return module.default;
  } catch (error) {
    const module = await import("/static/games/generic.js");
    return module.default;
  }
}

/** Log lines for a run of views (oldest first), using the renderer's describe(). */
export function describeRun(renderer, views, context) {
  const lines = [];
  for (let i = 1; i < views.length; i += 1) {
    for (const line of renderer.describe(views[i - 1], views[i], context)) lines.push(line);
  }
  return lines;
}

/** A log line is a string or {text, kind} where kind is "round" or "big". */
export function logItem(line, fresh) {
  const text = typeof line === "string" ? line : line.text;
  const kind = typeof line === "string" ? "" : line.kind || "";
  return h("li", { class: `${kind}${fresh ? " fresh" : ""}` }, text);
}

export function readToken() {
  const match = /(?:^|[#&])seat=([A-Za-z0-9_-]+)/.exec(window.location.hash);
  return match ? match[1] : null;
}

export function tableIdFromPath() {
  const parts = window.location.pathname.split("/").filter(Boolean);
  return decodeURIComponent(parts[parts.length - 1] || "");
}
