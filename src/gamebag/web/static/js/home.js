// The home page: this person's tables (their move first), finished games and statistics. A guest's
// seats are the tokens this browser keeps; the server answers only about the seats it is shown.
import { changeHeaders, h, keptSeats, listWords } from "./common.js";

const elements = {
  error: document.getElementById("home-error"),
  open: document.getElementById("home-open"),
  finished: document.getElementById("home-finished"),
  more: document.getElementById("home-more"),
  stats: document.getElementById("home-stats"),
};

// Everything this page says (whole sentences, for the translation catalogues).
const TEXT = {
  yourMove: "Your move",
  waiting: "Waiting for the others",
  noOpen: "No open tables: open one in the lobby, or press Play now there.",
  noFinished: "No finished games yet.",
  play: "Go to the table",
  replay: "Replay with the analysis",
  record: "Record",
  placed: (place, players) => `You placed ${place} of ${players}.`,
  won: "You won.",
  winners: (names) => `${listWords(names)} won.`,
  scores: (scores) => `Scores: ${scores.join(", ")}.`,
  failed: (why) => `Your games could not be loaded: ${why}`,
  lowerWins: (score) => `${score} (lowest wins)`,
};

let page = 0;

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
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
    h("td", {}, row.game), h("td", {}, row.games), h("td", {}, row.wins),
    h("td", {}, row.average_place ?? "–"),
    h("td", {}, row.best_score === null ? "–" : row.lower_score_wins ? TEXT.lowerWins(row.best_score) : row.best_score))));
}

elements.more.addEventListener("click", () => {
  page += 1;
  load();
});
load();
