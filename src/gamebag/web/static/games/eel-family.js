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

/** Whether the draw that made ``view`` ended its round in an outbreak. */
function isOutbreak(view) {
  return !!(view.last_grab && view.last_grab.outbreak);
}

function sum(values) {
  return (values || []).reduce((a, b) => a + (b || 0), 0);
}

/**
 * Why the outbreak went as it did, in the rulebook's words and this table's numbers: how many
 * snakes, who lost and why, who scored what, what went back unscored. ``previous`` is the view just
 * before the draw (null when not known: then only what the view itself tells).
 */
export function outbreakStory(view, previous, names) {
  const last = view.last_grab;
  const word = verb(view, "grab");
  const drawnSnakes = sum(last.snakes !== undefined ? last.snakes : [...Array(view.players).keys()].map((p) => drawnOf(last, p).snakes));
  // The view before this draw: of the round it ended (the outbreak view already shows the next one).
  const before = previous && !previous.over && (previous.round === view.round - 1 || (view.over && previous.round === view.round)) ? previous : null;
  const centre = before ? before.centre_snakes : null;
  const reach = centre === null
    ? `The snakes in the centre reached the outbreak number, ${view.threshold}, with ${plural(drawnSnakes, "snake")} in this ${word}.`
    : `The snakes in the centre reached ${centre + drawnSnakes} (${centre} before and ${drawnSnakes} in this ${word}); ${view.threshold} make an outbreak.`;
  const stillIn = [];
  for (let p = 0; p < view.players; p += 1) if (last.counts[p] !== null && last.counts[p] !== undefined && last.counts[p] !== 0) stillIn.push(p);
  const losers = last.losers.map((p) => names[p]);
  const harvest = view.game === "eel-harvest";
  const options = view.options || {};
  let lost;
  if (harvest) {
    const most = Math.max(...last.losers.map((p) => last.counts[p]));
    const had = before ? last.losers.map((p) => before.reserves[p] + drawnOf(last, p).eels) : null;
    lost = `${listWords(losers)} drew the most tokens in this ${word} (${most}) and ${losers.length > 1 ? "lose" : "loses"} every eel` +
      `${had ? ` (${losers.length > 1 ? listWords(had.map((n, i) => `${losers[i]} ${plural(n, "eel")}`)) : plural(had[0], "eel")})` : ""}.`;
  } else {
    const had = before ? last.losers.map((p) => before.reserves[p] + drawnOf(last, p).eels) : null;
    lost = `${listWords(losers)} ${losers.length > 1 ? "hold" : "holds"} the most eels in reserve` +
      `${had ? ` (${plural(had[0], "eel")})` : ""} and ${losers.length > 1 ? "lose them" : "loses them"} all.`;
  }
  const others = stillIn.filter((p) => !last.losers.includes(p));
  const wholeReserve = !harvest || options.outbreak_scores_reserve;
  const scored = others.map((p) => `${names[p]} +${last.scored[p]}`);
  let scoring = "";
  if (others.length) {
    scoring = wholeReserve
      ? `The others still in score their whole reserve: ${scored.join(", ")}.`
      : `The others still in score only the eels they drew in this ${word}: ${scored.join(", ")}.`;
    if (!wholeReserve && before) {
      const back = others
        .map((p) => [p, before.reserves[p]])
        .filter(([, n]) => n > 0)
        .map(([p, n]) => `${names[p]}'s ${plural(n, "eel")}`);
      scoring += back.length
        ? ` The rest of their reserves goes back to the bag unscored (${listWords(back)}).`
        : " Nobody else had eels in reserve to lose.";
    } else if (!wholeReserve) {
      scoring += " The rest of their reserves goes back to the bag unscored.";
    }
  } else {
    scoring = "Nobody else was still in the round.";
  }
  return { reach, lost, scoring };
}

function outbreakNode(context) {
  const { view, animate, previousView, names } = context;
  const story = outbreakStory(view, previousView, names);
  const slots = [];
  for (let i = 0; i < view.threshold; i += 1) slots.push(token("snake", animate ? "reveal" : ""));
  return h(
    "div",
    { id: "centre", class: `outbreak${animate ? " shake" : ""}` },
    h("div", { class: "caption" }, "Snake outbreak!"),
    h("div", { class: "tokens" }, slots),
    h("div", { class: "small", id: "outbreak-story" }, `${story.reach} ${story.lost} ${story.scoring} The round ended.`),
  );
}

function centreNode(context) {
  const { view, animate } = context;
  if (isOutbreak(view) && view.centre_snakes === 0) return outbreakNode(context);
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
  const target = view.target;
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
      h("span", {}, view.game === "eel-harvest" ? `to ${view.target} points, checked at each round's end` : `first to ${view.target} points`),
      h("span", {}, `at most ${view.max_grab} a ${verb(view, "grab")}`),
    ),
  );
  board.appendChild(h("div", { class: "centre" }, bagNode(view), centreNode({ ...context, names: table.seats.map((s) => s.name) })));
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

/** "How to play", with this table's numbers and options (the rulebook's when left alone). */
function howToPlay(context) {
  const { view } = context;
  const options = view.options || {};
  const harvest = view.game === "eel-harvest";
  const grab = verb(view, "grab");
  const lines = [
    `Everyone ${verb(view, "grabs")} in secret at the same time: choose how many tokens to take from the bag (0 to ${view.max_grab}).`,
    `Eels you ${grab} go to your reserve in front of you (not yet points). Snakes go to the centre of the table for all to see.`,
  ];
  if (harvest) {
    const scoring = options.outbreak_scores_reserve
      ? "every other player still in scores their whole reserve"
      : `every other player still in scores only the eels they drew in this ${grab}; the rest of their reserve goes back to the bag unscored`;
    lines.push(`When the snakes in the centre reach ${view.threshold}, there is a snake outbreak: whoever drew the most tokens in this ${grab} (all tied) loses every eel they have; ${scoring}.`);
    lines.push("Drawing 0 means you exit the round: you score the eels in your reserve and sit out until the next round.");
    lines.push(`At the end of a round, if someone has ${view.target} or more points, the game ends: the highest score wins (among tied players, whoever exited earlier in the final round loses).`);
  } else {
    lines.push(`When the snakes in the centre reach ${view.threshold}, there is a snake outbreak: whoever still in holds the most eels in reserve (all tied) loses them all; everyone else still in the round scores their whole reserve.`);
    lines.push("Grabbing 0 means you exit the round: you score your reserve at once and sit out until the next round.");
    lines.push(`The game ends after the grab in which someone reaches ${view.target} points; the highest score wins (a tie shares the win).`);
  }
  if (view.bag && view.bag.dice) lines.push("Each token drawn is a D4 roll: a snake with chance 1 in 4, and the bag never runs out.");
  if (options.rotate_start) lines.push("The start player moves one seat to the left each round.");
  if (options.lone_player_grabs !== null && options.lone_player_grabs !== undefined) {
    lines.push(`When one player is left in the round, they may ${grab} ${plural(options.lone_player_grabs, "more time")}; then they exit automatically, scoring their reserve.`);
  }
  return lines;
}

const RULEBOOK_WIN = {
  "wriggle-roulette": "The first player to reach 20 points wins the game immediately.",
  "eel-harvest": "At the end of a round, if a player reaches 20 points, the game ends. The player with the highest score wins. In case of a tie, the player who exited earlier in the final round is the loser. If still tied, victory is shared.",
};

function rulebookWin(context) {
  const words = RULEBOOK_WIN[context.table.game];
  if (!words) return null;
  const target = context.view.target;
  return target === 20 ? words : `${words} (This table plays to ${target} points.)`;
}

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
  const target = view.target;
  const winners = result.winners.map((p) => `${names[p]} (${view.scores[p]})`);
  const reached = view.scores.map((score, p) => [score, p]).filter(([score]) => score >= target).map(([, p]) => names[p]);
  if (!winners.length) return "Nobody won.";
  const base = reached.length ? `${listWords(reached)} reached ${target} points` : `The round limit ended the game`;
  return `${base}; ${listWords(winners)} ${winners.length > 1 ? "share the highest score" : "has the highest score"}.`;
}

export const eelExtras = {
  howToPlay, hint, privateInfo, explainEnd, rulebookWin,
};

export function eelRenderer() {
  return { render, describe, label, ...eelExtras };
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
      const story = outbreakStory(next, previous, names);
      lines.push({ kind: "big", text: `Snake outbreak! ${story.reach}` });
      lines.push({ kind: "big", text: story.lost });
      lines.push(story.scoring);
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
