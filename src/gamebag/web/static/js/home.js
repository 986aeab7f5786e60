// The home page: this person's tables (their move first), finished games and statistics. A guest's
// seats are the tokens this browser keeps; the server answers only about the seats it is shown.
import { changeHeaders, h, keptSeats, listWords } from "./common.js";
import { _, formatDate, formatNumber } from "./i18n.js";

const elements = {
  error: document.getElementById("home-error"),
  open: document.getElementById("home-open"),
  finished: document.getElementById("home-finished"),
  more: document.getElementById("home-more"),
  stats: document.getElementById("home-stats"),
};

// Everything this page says (whole sentences, for the translation catalogues).
const TEXT = {
  get yourMove() { return _("Your move"); },
  get waiting() { return _("Waiting for the others"); },
  get noOpen() { return _("No open tables: open one in the lobby, or press Play now there."); },
  get noFinished() { return _("No finished games yet."); },
  get play() { return _("Go to the table"); },
  get replay() { return _("Replay with the analysis"); },
  get record() { return _("Record"); },
  placed: (place, players) => _("You placed {place} of {players}.", { place: formatNumber(place), players: formatNumber(players) }),
  get won() { return _("You won."); },
  winners: (names) => (names.length > 1 ? _("{names} won.", { names: listWords(names) }) : _("{name} won.", { name: names[0] })),
  scores: (scores) => _("Scores: {scores}.", { scores: scores.map((s) => formatNumber(s)).join(", ") }),
  failed: (why) => _("Your games could not be loaded: {why}", { why }),
  lowerWins: (score) => _("{score} (lowest wins)", { score: formatNumber(score) }),
};

let page = 0;

function when(seconds) {
  return formatDate(new Date(seconds * 1000));
}

function openItem(row) {
  return h("li", { class: row.your_move ? "your-move" : "", "data-table": row.id },
    h("strong", {}, row.your_move ? TEXT.yourMove : TEXT.waiting), " · ",
    `${row.game} · ${row.seat_names.join(", ")} · ${when(row.created_at)} · `,
    h("a", { href: row.play }, TEXT.play));
}

function finishedItem(row) {
  const winners = (row.winners || []).map((seat) => row.seat_names[seat]);
  const result = row.won ? TEXT.won : winners.length ? TEXT.winners(winners) : "";
  return h("li", { "data-table": row.id },
    h("strong", {}, row.game), ` · ${when(row.created_at)} · ${row.seat_names.join(", ")} · `,
    row.place ? `${TEXT.placed(row.place, row.players)} ` : "", result,
    row.scores ? ` ${TEXT.scores(row.scores)}` : "",
    h("div", { class: "actions small" },
      h("a", { href: row.replay }, TEXT.replay), " · ",
      h("a", { href: row.record }, TEXT.record)));
}

async function load() {
  // Signed in, the session's CSRF token goes along (changeHeaders): the server then answers with the
  // account's seats on every device; without it, a POST is answered as for a guest, from this browser's tokens.
  const response = await fetch("/api/home", {
    method: "POST", headers: await changeHeaders(),
    body: JSON.stringify({ seats: keptSeats().slice(-100), page }),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    elements.error.textContent = TEXT.failed(answer.error || response.status);
    return;
  }
  elements.error.textContent = "";
  elements.open.replaceChildren(...(answer.open.length ? answer.open.map(openItem) : [h("li", { class: "muted" }, TEXT.noOpen)]));
  const finished = answer.finished.map(finishedItem);
  if (page === 0) elements.finished.replaceChildren(...(finished.length ? finished : [h("li", { class: "muted" }, TEXT.noFinished)]));
  else elements.finished.append(...finished);
  elements.more.hidden = !answer.more;
  elements.stats.replaceChildren(...answer.stats.map((row) => h("tr", {},
    h("td", {}, row.game), h("td", {}, formatNumber(row.games)), h("td", {}, formatNumber(row.wins)),
    h("td", {}, row.average_place === null || row.average_place === undefined ? "–" : formatNumber(row.average_place)),
    h("td", {}, row.best_score === null ? "–" : row.lower_score_wins ? TEXT.lowerWins(row.best_score) : formatNumber(row.best_score)))));
}

elements.more.addEventListener("click", () => {
  page += 1;
  load();
});
load();
