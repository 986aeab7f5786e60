// Leaderboards per game and player count: rated accounts, best first, each rating with its uncertainty.
import { h } from "./common.js";
import { _, formatNumber } from "./i18n.js";

const elements = {
  game: document.getElementById("board-game"),
  players: document.getElementById("board-players"),
  board: document.getElementById("board"),
  error: document.getElementById("board-error"),
  anchors: document.getElementById("board-anchors"),
};

// Everything this page says (whole sentences, for the translation catalogues).
const TEXT = {
  rating: (entry) => _("{rating} ({low} to {high})",
    { rating: formatNumber(entry.mu), low: formatNumber(entry.interval[0]), high: formatNumber(entry.interval[1]) }),
  get provisional() { return _("provisional"); },
  get empty() { return _("Nobody is rated here yet."); },
  anchors: (list) => _("Bots, fixed: {list}.", { list }),
  failed: (why) => _("The leaderboard could not be loaded: {why}", { why }),
};

let games = [];

function fillPlayers() {
  const game = games.find((g) => g.id === elements.game.value) || games[0];
  const wanted = new URLSearchParams(window.location.search).get("players");
  elements.players.replaceChildren();
  for (let n = game.min_players; n <= game.max_players; n += 1) {
    const selected = wanted ? String(n) === wanted : n === game.default_players;
    elements.players.appendChild(h("option", { value: n, selected }, n));
  }
}

async function load() {
  const query = new URLSearchParams({ game: elements.game.value, players: elements.players.value });
  const response = await fetch(`/api/leaderboard?${query}`);
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    elements.error.textContent = TEXT.failed(answer.error || response.status);
    return;
  }
  elements.error.textContent = "";
  elements.board.replaceChildren(...(answer.entries.length ? answer.entries.map((entry) => h("tr", {},
    h("td", {}, formatNumber(entry.rank)),
    h("td", {}, h("a", { href: `/people/${encodeURIComponent(entry.account)}` }, entry.name)),
    h("td", {}, TEXT.rating(entry), entry.provisional ? h("span", { class: "small muted" }, ` · ${TEXT.provisional}`) : null),
    h("td", {}, formatNumber(entry.games)))) : [h("tr", {}, h("td", { colspan: 4, class: "muted" }, TEXT.empty))]));
  elements.anchors.textContent = TEXT.anchors(answer.anchors.map((a) => `${a.agent} ${formatNumber(a.mu)}`).join(", "));
}

async function start() {
  games = await (await fetch("/api/games")).json();
  const wanted = new URLSearchParams(window.location.search).get("game");
  elements.game.replaceChildren(...games.map((game) => h("option", { value: game.id, selected: game.id === wanted }, game.title)));
  fillPlayers();
  elements.game.addEventListener("change", () => {
    fillPlayers();
    load();
  });
  elements.players.addEventListener("change", load);
  load();
}

start();
