// Small helpers shared by every page and game renderer (no framework, no build step).
import { _, formatList, formatNumber, language, languageTag } from "./i18n.js";

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
  return entry ? entry.name : _("Seat {n}", { n: seat + 1 });
}

// The reader's lists are the browser's (Intl) where it knows the language; English keeps its
// own "A, B and C", and a language Intl lacks (the pseudo-locale too) takes the catalogue's.
const INTL_LISTS = !["en", "en_XA"].includes(language) && typeof Intl.ListFormat === "function"
  && Intl.ListFormat.supportedLocalesOf([languageTag]).length > 0;

/** "A", "A and B", "A, B and C" in English; the reader's own way elsewhere ("A, B en C", "A、B、C"). */
export function listWords(items) {
  if (items.length <= 1) return items.join("");
  if (INTL_LISTS) return formatList(items);
  // Translators: the end of a list of names or things: "Ann, Bob and Cleo" ({items} is "Ann, Bob").
  return _("{items} and {last}", { items: items.slice(0, -1).join(", "), last: items[items.length - 1] });
}

/** "3 coins": an English word's plural (a renderer's own words take ``ngettext`` of their catalogue);
 * the number is written the reader's way. */
export function plural(count, word, many) {
  return `${formatNumber(count)} ${count === 1 ? word : many || `${word}s`}`;
}

/**
 * Plural forms in English words where a text says "word(s)" (translated text has none to change): "1 coin(s)" -> "1 coin", "3 weed token(s)"
 * -> "3 weed tokens", "A and B win(s)" -> "A and B win", "A win(s)" -> "A wins".
 */
export function pluralWords(text) {
  return String(text)
    .replace(/\b(\d+) ((?:[A-Za-z-]+ )*?)([A-Za-z-]+)\(s\)/g, (whole, count, words, word) => `${count} ${words}${Number(count) === 1 ? word : `${word}s`}`)
    .replace(/([^:;.]*?) win\(s\)/g, (whole, who) => `${who} ${/,| and /.test(who) ? "win" : "wins"}`)
    .replace(/\(s\)/g, "s");
}

/** A compact, readable text for any JSON value (actions of games without a renderer). */
export function jsonText(value) {
  if (value === null || value === undefined) return _("none");
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return value.length ? value.map(jsonText).join(" + ") : _("nothing");
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

/** A log line is a string or {text, kind} where kind is "round" or "big"; ``event``: the index of
 * the record event it tells, when known. */
export function logItem(line, fresh, event) {
  const text = typeof line === "string" ? line : line.text;
  const kind = typeof line === "string" ? "" : line.kind || "";
  return h("li", { class: `${kind}${fresh ? " fresh" : ""}`, "data-event": event ?? null }, text);
}

/** A seat token given in the address (``#seat=``, a rematch's own link), else the one this
 * device keeps for the table (its own seat, claimed from an invite). */
export function readToken(tableId) {
  const match = /(?:^|[#&])seat=([A-Za-z0-9_-]+)/.exec(window.location.hash);
  return match ? match[1] : storedSeat(tableId);
}

// A seat's own token is the only secret a page keeps in localStorage (so the seat survives a
// reload or a closed tab); the table page offers to forget it.
const seatKey = (tableId) => `gamebag-seat:${tableId}`;

export function storedSeat(tableId) {
  try {
    return window.localStorage.getItem(seatKey(tableId));
  } catch (error) {
    return null;
  }
}

/** This browser's session, asked once per page: ``{account, csrf}`` (``account`` null for a guest,
 * who is never asked to sign in). */
let sessionAnswer = null;
export function session() {
  sessionAnswer ??= fetch("/api/me")
    .then((response) => (response.ok ? response.json() : { account: null, csrf: null }))
    .catch(() => ({ account: null, csrf: null }));
  return sessionAnswer;
}

/** The headers of a request that changes something: JSON, and when signed in the session's CSRF
 * token, so that the request acts for the account (a claimed seat then follows its person). */
export async function changeHeaders() {
  const { csrf } = await session();
  return csrf ? { "content-type": "application/json", "x-csrf-token": csrf } : { "content-type": "application/json" };
}

async function postClaim(tableId, code) {
  return fetch(`/api/tables/${encodeURIComponent(tableId)}/claim`, {
    method: "POST", headers: await changeHeaders(), body: JSON.stringify({ invite: code }),
  });
}

/** Claim a seat's invite (``code``) for this device, as opening its link would, and keep the
 * seat's own token here (the lobby does it for the seat its host plays). */
export async function claimInvite(tableId, code) {
  const response = await postClaim(tableId, code);
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.error || _("the server answered {status}", { status: response.status }));
  window.localStorage.setItem(seatKey(tableId), answer.token);
  return answer.token;
}

/** A signed-in person's seat at ``tableId`` from their account (any device they signed in on):
 * its token, or the invite a host kept for them, claimed now. Null for a guest or no such seat. */
async function accountSeat(tableId) {
  const { account } = await session();
  if (!account) return null;
  const response = await fetch("/api/me/seats");
  if (!response.ok) return null;
  const mine = ((await response.json()).seats || []).find((seat) => seat.table === tableId);
  if (!mine) return null;
  if (mine.token) return mine.token;
  const invite = /#invite=([A-Za-z0-9_-]+)/.exec(mine.invite || "");
  return invite ? claimInvite(tableId, invite[1]).catch(() => null) : null;
}

/** Keep a seat's own token on this device (a seat taken at an open table or by "Play now"). */
export function keepSeat(tableId, token) {
  window.localStorage.setItem(seatKey(tableId), token);
}

/** Every seat this device keeps: ``[{table, token}]`` (the home page asks about these only). */
export function keptSeats() {
  const kept = [];
  try {
    for (let index = 0; index < window.localStorage.length; index += 1) {
      const key = window.localStorage.key(index);
      if (key && key.startsWith("gamebag-seat:")) kept.push({ table: key.slice("gamebag-seat:".length), token: window.localStorage.getItem(key) });
    }
  } catch (error) {
    return kept;
  }
  return kept;
}

export function forgetSeat(tableId) {
  window.localStorage.removeItem(seatKey(tableId));
}

/**
 * This page's seat at ``tableId``: an invite in the address (``#invite=``) is claimed once (the
 * server answers with the seat's own token, and the link then gives nothing more); the token is
 * kept on this device and taken out of the address. Returns ``{token, problem}``: ``problem``
 * says why an invite gave no seat (used already, re-issued) when this device holds none.
 */
export async function seatToken(tableId) {
  const invite = /(?:^|[#&])invite=([A-Za-z0-9_-]+)/.exec(window.location.hash);
  const given = /(?:^|[#&])seat=([A-Za-z0-9_-]+)/.exec(window.location.hash);
  let token = given ? given[1] : null;
  let problem = null;
  if (invite) {
    const response = await postClaim(tableId, invite[1]);
    const answer = await response.json().catch(() => ({}));
    if (response.ok) token = answer.token;
    else problem = answer.error || _("the invite could not be used (the server answered {status})", { status: response.status });
  }
  if (invite || given) window.history.replaceState(null, "", window.location.pathname + window.location.search);
  if (token) {
    window.localStorage.setItem(seatKey(tableId), token);
    return { token, problem: null };
  }
  const kept = storedSeat(tableId) || (await accountSeat(tableId));
  if (kept) window.localStorage.setItem(seatKey(tableId), kept);
  return { token: kept, problem: kept ? null : problem };
}

export function tableIdFromPath() {
  const parts = window.location.pathname.split("/").filter(Boolean);
  return decodeURIComponent(parts[parts.length - 1] || "");
}

/** Inline Markdown (bold, code, links shown as their text) as DOM nodes: never parsed as HTML. */
function inlineNodes(text) {
  const nodes = [];
  const pattern = /(\*\*[^*]+\*\*|`[^`]+`|\[[^\]]+\]\([^)]*\))/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) nodes.push(text.slice(last, match.index));
    const token = match[0];
    if (token.startsWith("**")) nodes.push(h("strong", {}, token.slice(2, -2)));
    else if (token.startsWith("`")) nodes.push(h("code", {}, token.slice(1, -1)));
    else nodes.push(token.slice(1, token.indexOf("]")));
    last = match.index + token.length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}

/** A Markdown page (headings, paragraphs, lists, tables) as DOM nodes, for the rules sheet. */
export function markdownNodes(markdown) {
  const out = [];
  const lines = String(markdown || "").split("\n");
  let paragraph = [];
  let list = null;
  let table = null;
  const flush = () => {
    if (paragraph.length) out.push(h("p", {}, inlineNodes(paragraph.join(" "))));
    paragraph = [];
    if (list) out.push(list);
    list = null;
    if (table) out.push(h("div", { class: "table-scroll", tabindex: 0 }, table));
    table = null;
  };
  for (const raw of lines) {
    const line = raw.trimEnd();
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    const item = /^\s*(?:[-*]|\d+\.)\s+(.*)$/.exec(line);
    if (!line.trim()) {
      flush();
    } else if (heading) {
      flush();
      const level = Math.min(6, heading[1].length + 2);
      out.push(h(`h${level}`, {}, inlineNodes(heading[2])));
    } else if (line.startsWith("|")) {
      if (paragraph.length || list) flush();
      const cells = line.split("|").slice(1, -1).map((c) => c.trim());
      if (cells.every((c) => /^:?-+:?$/.test(c))) continue;
      if (!table) table = h("table", { class: "list" });
      table.appendChild(h("tr", {}, cells.map((c) => h(table.children.length ? "td" : "th", {}, inlineNodes(c)))));
    } else if (item) {
      if (paragraph.length || table) flush();
      if (!list) list = h("ul");
      list.appendChild(h("li", {}, inlineNodes(item[1])));
    } else if (list && /^\s+/.test(raw)) {
      list.lastChild.appendChild(document.createTextNode(` ${line.trim()}`));
    } else {
      if (list || table) flush();
      paragraph.push(line.trim());
    }
  }
  flush();
  return out;
}

/** A QR code (rows of "0"/"1" from the server) as an SVG picture with a quiet zone. */
export function qrPicture(rows, label) {
  const size = rows.length;
  const quiet = 4;
  let path = "";
  rows.forEach((row, y) => {
    for (let x = 0; x < row.length; x += 1) if (row[x] === "1") path += `M${x + quiet} ${y + quiet}h1v1h-1z`;
  });
  const total = size + 2 * quiet;
  return svg(
    "svg",
    { viewBox: `0 0 ${total} ${total}`, class: "qr", role: "img", "aria-label": label, "shape-rendering": "crispEdges" },
    svg("rect", { width: total, height: total, fill: "#fff" }),
    svg("path", { d: path, fill: "#000" }),
  );
}

/** Show a failure to the person (a visible notice) and report it to the server's log. */
export function reportFailure(where, error, notice) {
  const text = `${where}: ${error && error.message ? error.message : String(error)}`;
  console.error(text, error);
  if (notice) {
    notice.hidden = false;
    notice.textContent = _("Something went wrong drawing this page ({error}). The plain view is shown instead; reloading may help.", { error: text });
  }
  try {
    fetch("/api/client-errors", {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ where, message: text.slice(0, 500), page: window.location.pathname }),
    }).catch(() => {});
  } catch (ignored) {
    // reporting is best effort
  }
}
