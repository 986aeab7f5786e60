// The table of the Eel family (Wriggle Roulette and Eel Harvest): the bag, the snakes in the
// centre against the outbreak threshold, each player's reserve and score, the secret grabs
// (who has chosen, never what) and the animated reveal of the last grab.
import { h, listWords, plural, seatName, svg } from "../js/common.js";

const EEL = { body: "#8fd694", edge: "#2f7a3b" };
const SNAKE = { body: "#e4583e", edge: "#6e1a0c" };

/** One wooden token: a wiggly eel (green) or snake (red with a dark pattern). */
export function token(kind, extraClass) {
  const colours = kind === "snake" ? SNAKE : EEL;
  const path = "M3 9 C 7 2, 11 2, 15 8 S 23 15, 27 7";
  const picture = svg(
    "svg",
    { viewBox: "0 0 30 16", class: `token ${kind}${extraClass ? ` ${extraClass}` : ""}`, role: "img", "aria-label": kind },
    svg("path", { d: path, fill: "none", stroke: colours.edge, "stroke-width": 6, "stroke-linecap": "round" }),
    svg("path", { d: path, fill: "none", stroke: colours.body, "stroke-width": 4, "stroke-linecap": "round" }),
    kind === "snake"
      ? svg("path", { d: path, fill: "none", stroke: colours.edge, "stroke-width": 2, "stroke-dasharray": "2 3" })
      : null,
    svg("circle", { cx: 27, cy: 7, r: 2.6, fill: colours.edge }),
  );
  return picture;
}

/** "grab" in Wriggle Roulette, "draw" in Eel Harvest (each rulebook's own word). */
function verb(view, word) {
  if (!view || view.game !== "eel-harvest") return word;
  return { Grab: "Draw", grab: "draw", grabs: "draws", grabbed: "drew" }[word] || word;
}

/** How many eels and snakes seat p drew in the last grab (either encoding of the view). */
export function drawnOf(last, p) {
  if (last.drawn) {
    const tokens = last.drawn[p] || "";
    const snakes = [...tokens].filter((t) => t === "S").length;
    return { eels: tokens.length - snakes, snakes, order: tokens };
  }
  const eels = last.eels ? last.eels[p] || 0 : 0;
  const snakes = last.snakes ? last.snakes[p] || 0 : 0;
  return { eels, snakes, order: "E".repeat(eels) + "S".repeat(snakes) };
}

function tokens(count, kind, limit, extraClass) {
  const shown = Math.min(count, limit);
  const items = [];
  for (let i = 0; i < shown; i += 1) items.push(token(kind, extraClass));
  if (count > shown) items.push(h("span", { class: "small" }, ` +${count - shown}`));
  return items;
}

function bagNode(view) {
  const bag = view.bag || {};
  if (bag.dice) {
    return h("div", { class: "bag", id: "bag" }, h("div", {}, "D4 dice"), h("div", { class: "small" }, "1 in 4 is a snake"));
  }
  return h(
    "div",
    { class: "bag", id: "bag", title: "the bag" },
    h("div", { class: "small" }, "BAG"),
    h("div", {}, plural(bag.eels, "eel")),
    h("div", {}, plural(bag.snakes, "snake")),
  );
}

function outbreakNode(view, animate) {
  const last = view.last_grab;
  const snakes = last.snakes ? last.snakes.reduce((a, b) => a + (b || 0), 0) : 0;
  const slots = [];
  for (let i = 0; i < view.threshold; i += 1) slots.push(token("snake", animate ? "reveal" : ""));
  return h(
    "div",
    { id: "centre", class: `outbreak${animate ? " shake" : ""}` },
    h("div", { class: "caption" }, "Snake outbreak!"),
    h("div", { class: "tokens" }, slots),
    h("div", { class: "small" }, `The snakes in the centre reached ${view.threshold}${snakes ? ` (${plural(snakes, "snake")} in the last grab)` : ""}: the round ended.`),
  );
}

function centreNode(view, animate) {
  if (view.last_grab && view.last_grab.outbreak && view.centre_snakes === 0) return outbreakNode(view, animate);
  const slots = [];
  let freshCount = 0;
  if (view.last_grab && !view.last_grab.round_over) {
    for (let p = 0; p < view.players; p += 1) freshCount += drawnOf(view.last_grab, p).snakes;
  }
  for (let i = 0; i < view.threshold; i += 1) {
    if (i < view.centre_snakes) {
      const isNew = animate && i >= view.centre_snakes - freshCount;
      slots.push(token("snake", isNew ? "reveal" : ""));
    } else {
      slots.push(h("span", { class: "token slot" }));
    }
  }
  const left = view.threshold - view.centre_snakes;
  return h(
    "div",
    { id: "centre", class: view.last_grab && view.last_grab.outbreak && animate ? "shake" : "" },
    h("div", { class: "caption" }, `Snakes in the centre: ${view.centre_snakes} of ${view.threshold}`),
    h("div", { class: "tokens" }, slots),
    h("div", { class: "small" }, left > 0 ? `${plural(left, "more snake")} and the round ends in an outbreak` : "Outbreak!"),
  );
}

function lastGrabNode(view, p, animate) {
  const last = view.last_grab;
  if (!last || last.counts[p] === null || last.counts[p] === undefined) return null;
  const count = last.counts[p];
  const parts = [];
  if (count === 0) {
    parts.push(h("span", {}, `exited, scored ${last.scored[p]}`));
  } else {
    const drawn = drawnOf(last, p);
    const pieces = [...drawn.order].map((t, i) => {
      const piece = token(t === "S" ? "snake" : "eel", animate ? "reveal" : "");
      if (animate) piece.style.animationDelay = `${0.12 * i + 0.1 * p}s`;
      return piece;
    });
    parts.push(h("span", {}, `${verb(view, "grabbed")} ${count}: `), h("span", { class: "tokens", style: { display: "inline-flex" } }, pieces));
    if (last.losers.includes(p)) parts.push(h("div", { class: "badge out" }, "lost their eels"));
    else if (last.scored[p] > 0) parts.push(h("div", { class: "badge chosen" }, `scored ${last.scored[p]}`));
  }
  return h("div", { class: "small last-grab", style: { marginTop: "0.3em" } }, `Last ${verb(view, "grab")}: `, parts);
}

function playerNode(context, p) {
  const { view, table, seat } = context;
  const choices = view.choices || { waiting_for: [], chosen: [] };
  const inRound = view.in_round[p];
  const badges = [];
  if (p === seat) badges.push(h("span", { class: "badge" }, "you"));
  if (p === view.start_player) badges.push(h("span", { class: "badge" }, "start"));
  if (table.seats[p].bot) badges.push(h("span", { class: "badge" }, "bot"));
  let status;
  if (view.over) status = view.winners.includes(p) ? h("span", { class: "badge chosen" }, "winner") : null;
  else if (!inRound) status = h("span", { class: "badge out" }, "out of the round");
  else if (choices.chosen.includes(p)) status = h("span", { class: "badge chosen", "data-chosen": p }, "has chosen ✓");
  else if (choices.waiting_for.includes(p)) status = h("span", { class: "badge waiting" }, "choosing…");
  const target = view.target || 20;
  return h(
    "div",
    {
      class: `player${p === seat ? " me" : ""}${inRound || view.over ? "" : " out"}`,
      id: `player-${p}`,
    },
    h("div", { class: "name" }, seatName(table, p), badges),
    h("div", { class: "row" }, h("span", { class: "score" }, view.scores[p]), h("span", { class: "small" }, `of ${target} points`)),
    h("div", { class: "meter" }, h("span", { style: { width: `${Math.min(100, (100 * view.scores[p]) / target)}%` } })),
    h("div", { class: "small", style: { marginTop: "0.35em" } }, `Reserve: ${plural(view.reserves[p], "eel")}`),
    h("div", { class: "tokens" }, tokens(view.reserves[p], "eel", 14, "")),
    h("div", { style: { marginTop: "0.3em" } }, status),
    lastGrabNode(view, p, context.animate),
  );
}

function render(context) {
  const { view, table, board, controls, legal, act } = context;
  const startName = seatName(table, view.start_player);
  board.appendChild(
    h(
      "div",
      { class: "info-line" },
      h("strong", {}, `Round ${view.round}`),
      h("span", {}, `${verb(view, "grab")} ${view.grab}`),
      h("span", {}, `${startName} starts`),
      h("span", {}, `first to ${view.target || 20} points`),
      h("span", {}, `at most ${view.max_grab} a ${verb(view, "grab")}`),
    ),
  );
  board.appendChild(h("div", { class: "centre" }, bagNode(view), centreNode(view, context.animate)));
  const grid = h("div", { class: "player-grid" });
  for (let p = 0; p < view.players; p += 1) grid.appendChild(playerNode(context, p));
  board.appendChild(grid);
  if (legal.length) {
    const mine = view.choices ? view.choices.mine : null;
    const me = context.seat;
    controls.appendChild(h("h3", {}, view.game === "eel-harvest" ? "How many will you draw?" : "How many will you grab?"));
    controls.appendChild(
      h(
        "div",
        { class: "choices" },
        legal.map((count) =>
          h(
            "button",
            {
              class: `${count === mine ? "chosen" : ""}${count === 0 ? "" : " primary"}`,
              "data-action": JSON.stringify(count),
              "aria-label": count === 0 ? `Exit the round and score ${view.reserves[me]}` : `${verb(view, "Grab")} ${count}`,
              onclick: () => act(count),
            },
            count === 0 ? `Exit +${view.reserves[me]}` : String(count),
          ),
        ),
      ),
    );
  }
}

const HOW_TO = {
  "wriggle-roulette": [
    "Everyone grabs in secret at the same time: choose how many pieces to take from the bag (0 up to the limit shown).",
    "Eels you grab go to your reserve (not yet points). Snakes go to the centre of the table for all to see.",
    "When the snakes in the centre reach the threshold, there is a snake outbreak: whoever holds the most eels loses them all; everyone else still in the round scores their reserve.",
    "Grabbing 0 means you exit the round: you score your reserve at once and sit out until the next round.",
    "The first player to reach 20 points wins.",
  ],
  "eel-harvest": [
    "Everyone draws in secret at the same time: choose how many tokens to draw from the bag (0 up to the limit shown).",
    "Eels you draw go to your reserve (not yet points). Snakes go to the centre.",
    "When the snakes in the centre and in this draw reach the outbreak number, the player holding the most tokens in this draw loses all the eels collected this round; the others score the eels in front of them.",
    "Drawing 0 means you exit the round: you score the eels in front of you and sit out until the next round.",
    "At the end of a round, if someone has 20 points, the game ends: the highest score wins.",
  ],
};

const RULEBOOK_WIN = {
  "wriggle-roulette": "The first player to reach 20 points wins the game immediately.",
  "eel-harvest": "At the end of a round, if a player reaches 20 points, the game ends. The player with the highest score wins. In case of a tie, the player who exited earlier in the final round is the loser. If still tied, victory is shared.",
};

function hint(context) {
  const { view, seat } = context;
  const reserve = view.reserves[seat];
  const left = view.threshold - view.centre_snakes;
  return `Secret until everyone has chosen. ${plural(left, "more snake")} in the centre ends the round in an outbreak. ` +
    `Exit scores your ${plural(reserve, "eel")} now and sits out the round.`;
}

function privateInfo(context) {
  const { view, seat } = context;
  const most = Math.max(...view.reserves.filter((r, p) => view.in_round[p]), 0);
  const risk = context.table.game === "wriggle-roulette" && view.in_round[seat] && view.reserves[seat] > 0 && view.reserves[seat] >= most ? " (the most: at risk in an outbreak)" : "";
  return h(
    "div",
    { id: "my-reserve" },
    h("strong", {}, "You: "),
    `${plural(view.scores[seat], "point")}, ${plural(view.reserves[seat], "eel")} in reserve${risk}` +
      `${view.in_round[seat] || view.over ? "" : "; you are out of this round until the next one"}.`,
  );
}

function explainEnd(context, result) {
  const { view, names } = context;
  const target = view.target || 20;
  const winners = result.winners.map((p) => `${names[p]} (${view.scores[p]})`);
  const reached = view.scores.map((score, p) => [score, p]).filter(([score]) => score >= target).map(([, p]) => names[p]);
  if (!winners.length) return "Nobody won.";
  const base = reached.length ? `${listWords(reached)} reached ${target} points` : `The round limit ended the game`;
  return `${base}; ${listWords(winners)} ${winners.length > 1 ? "share the highest score" : "has the highest score"}.`;
}

export const eelExtras = {
  howToPlay: null, // set per game below (the table page reads renderer.howToPlay)
  hint, privateInfo, explainEnd,
  rulebookWin: (context) => RULEBOOK_WIN[context.table.game] || null,
};

export function eelRenderer(gameId) {
  return { render, describe, label, ...eelExtras, howToPlay: HOW_TO[gameId] || HOW_TO["wriggle-roulette"] };
}

function label(count, view) {
  return count === 0 ? "exit the round" : `${verb(view, "grab")} ${count}`;
}

function describe(previous, next, context) {
  const names = context.names;
  const lines = [];
  const newGrab =
    next.last_grab &&
    (previous.round !== next.round || previous.grab !== next.grab || (next.over && !previous.over));
  if (newGrab) {
    const last = next.last_grab;
    const exits = [];
    for (let p = 0; p < next.players; p += 1) {
      const count = last.counts[p];
      if (count === null || count === undefined) continue;
      if (count === 0) {
        exits.push(`${names[p]} exits the round and scores ${last.scored[p]}.`);
        continue;
      }
      const drawn = drawnOf(last, p);
      let text = `${names[p]} ${verb(next, "grabs")} ${count}: ${plural(drawn.eels, "eel")}, ${plural(drawn.snakes, "snake")}.`;
      if (last.exited.includes(p)) text += ` Then ${names[p]} must exit, scoring ${last.scored[p]}.`;
      lines.push(text);
    }
    lines.unshift(...exits);
    if (last.outbreak) {
      const losers = last.losers.map((p) => names[p]);
      lines.push({ kind: "big", text: `Snake outbreak! ${listWords(losers)} ${losers.length > 1 ? "lose their" : "loses their"} eels.` });
      const gains = [];
      for (let p = 0; p < next.players; p += 1) {
        if (!last.losers.includes(p) && last.scored[p] > 0 && last.counts[p] !== 0) gains.push(`${names[p]} +${last.scored[p]}`);
      }
      if (gains.length) lines.push(`Scored at the outbreak: ${gains.join(", ")}.`);
    } else if (last.round_over) {
      lines.push("Everyone has exited: the round is over.");
    }
  }
  if (next.round !== previous.round && !next.over) {
    lines.push({ kind: "round", text: `Round ${next.round} begins; ${names[next.start_player]} starts.` });
  }
  if (next.over && !previous.over) {
    const winners = next.winners.map((p) => `${names[p]} (${next.scores[p]})`);
    lines.push({ kind: "big", text: `Game over: ${listWords(winners)} ${winners.length > 1 ? "share the win" : "wins"}.` });
  }
  return lines;
}

export default eelRenderer("wriggle-roulette");
