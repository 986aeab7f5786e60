// Parts of the table page that keep it usable on a phone, and the page a dead link leads to:
// the bottom sheet's measure, score headers whose words never break, a gone table explained.
import { h } from "./common.js";
import { _ } from "./i18n.js";

// The smallest height of "What just happened" in the bottom sheet (its heading and two lines).
const HAPPENED_LEAST_PX = 74;

/** The height the panel needs as a bottom sheet: its parts, "What just happened" at its least. */
export function sheetNeeds(panel, happened) {
  const style = window.getComputedStyle(panel);
  let total = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
  for (const child of panel.children) {
    const own = window.getComputedStyle(child);
    if (own.display === "none") continue;
    const height = child === happened ? Math.min(child.scrollHeight, HAPPENED_LEAST_PX) : child.scrollHeight;
    total += height + parseFloat(own.marginTop) + parseFloat(own.marginBottom);
  }
  return total;
}

/** A column header's words, each kept whole: one too wide for its column ends in "…" (the
 * header's title and the text itself keep the whole name) instead of breaking mid-word. */
export function headerWords(name) {
  const words = String(name).split(/\s+/).filter(Boolean);
  return words.flatMap((word, i) => [i ? " " : null, h("span", { class: "word" }, word)]);
}

/**
 * A link that leads to no table (mistyped, or the table removed) or to a closed one (closed by
 * its host, or expired): say so in words, in place of the table, and lead back to the lobby.
 */
export function showGone(why, said) {
  const closed = why === "closed";
  const heading = closed ? _("This table is closed") : _("There is no such table");
  const explanation = closed
    ? _("Its host closed it, or it expired after a long time without play. A finished game's replay stays where it was.")
    : _("The link may be cut short or mistyped, or the table was removed from this server. Ask whoever sent it for a new link.");
  document.title = `${heading} · gamebag`;
  const byId = (id) => document.getElementById(id);
  byId("title").textContent = heading;
  const status = byId("status");
  status.className = "status-dot";
  status.setAttribute("aria-label", _("not connected"));
  status.title = _("not connected");
  byId("notice").textContent = "";
  document.body.dataset.turn = "gone";
  for (const hide of document.querySelectorAll(".table-layout, #summary, .skip-link")) hide.hidden = true;
  byId("rules-open").hidden = true;
  byId("log-open").hidden = true;
  const page = document.querySelector("main.page");
  page.appendChild(h("section", { class: "panel gone", id: "gone", role: "alert" },
    h("h2", {}, heading),
    h("p", {}, explanation),
    said ? h("p", { class: "small muted" }, _("The server said: {said}.", { said })) : null,
    h("p", {}, h("a", { class: "button primary", href: "/", id: "back-to-lobby" }, _("Back to the lobby")))));
}
