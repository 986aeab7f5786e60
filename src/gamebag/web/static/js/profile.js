// A person's profile: their ratings with uncertainty (a plot of each over time, drawn as SVG) and game counts.
import { h, svg } from "./common.js";
import { _, formatNumber, ngettext } from "./i18n.js";

const account = decodeURIComponent(window.location.pathname.split("/").pop());
const elements = {
  name: document.getElementById("profile-name"),
  error: document.getElementById("profile-error"),
  ratings: document.getElementById("profile-ratings"),
  counts: document.getElementById("profile-counts"),
};

// Everything this page says (whole sentences, for the translation catalogues).
const TEXT = {
  heading: (rating) => ngettext("{game}, {n} player", "{game}, {n} players", rating.players, { game: rating.game }),
  rating: (rating) => ngettext(
    "Rating {rating}, likely between {low} and {high}, after {n} rated game.",
    "Rating {rating}, likely between {low} and {high}, after {n} rated games.", rating.games,
    { rating: formatNumber(rating.mu), low: formatNumber(rating.interval[0]), high: formatNumber(rating.interval[1]) }),
  get provisional() { return _("Provisional: fewer than five rated games."); },
  plot: (rating) => ngettext(
    "The rating in {game} over {n} rated game, with its likely range shaded.",
    "The rating in {game} over {n} rated games, with its likely range shaded.", rating.history.length, { game: rating.game }),
  get none() { return _("No rated games yet."); },
  failed: (why) => _("This profile could not be loaded: {why}", { why }),
};

const WIDTH = 320;
const HEIGHT = 120;

/** The rating after each rated game: the mean as a line, mean ± 2 sigma as a band. */
function plot(rating) {
  const points = rating.history;
  const low = Math.min(...points.map((p) => p.mu - 2 * p.sigma));
  const high = Math.max(...points.map((p) => p.mu + 2 * p.sigma));
  const x = (index) => (points.length < 2 ? WIDTH / 2 : 8 + (index * (WIDTH - 16)) / (points.length - 1));
  const y = (value) => HEIGHT - 8 - ((value - low) * (HEIGHT - 16)) / Math.max(1e-6, high - low);
  const upper = points.map((p, i) => `${x(i)},${y(p.mu + 2 * p.sigma)}`);
  const lower = points.map((p, i) => `${x(i)},${y(p.mu - 2 * p.sigma)}`).reverse();
  return svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "rating-plot", role: "img", "aria-label": TEXT.plot(rating) },
    svg("polygon", { points: [...upper, ...lower].join(" "), fill: "#8aa9c4", "fill-opacity": "0.35" }),
    svg("polyline", { points: points.map((p, i) => `${x(i)},${y(p.mu)}`).join(" "), fill: "none", stroke: "#1f4e79", "stroke-width": "2" }),
    ...points.map((p, i) => svg("circle", { cx: x(i), cy: y(p.mu), r: 2.5, fill: "#1f4e79" })));
}

async function load() {
  const response = await fetch(`/api/people/${encodeURIComponent(account)}`);
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    elements.error.textContent = TEXT.failed(answer.error || response.status);
    return;
  }
  elements.name.textContent = answer.name;
  document.title = `gamebag · ${answer.name}`;
  elements.ratings.replaceChildren(...(answer.ratings.length ? answer.ratings.map((rating) => h("div", { class: "rating-card" },
    h("h3", {}, TEXT.heading(rating)),
    h("p", {}, TEXT.rating(rating)),
    rating.provisional ? h("p", { class: "small muted" }, TEXT.provisional) : null,
    rating.history.length ? plot(rating) : null)) : [h("p", { class: "muted" }, TEXT.none)]));
  elements.counts.replaceChildren(...answer.stats.map((row) => h("tr", {},
    h("td", {}, row.game), h("td", {}, formatNumber(row.games)), h("td", {}, formatNumber(row.wins)),
    h("td", {}, row.average_place === null || row.average_place === undefined ? "–" : formatNumber(row.average_place)))));
}

load();
