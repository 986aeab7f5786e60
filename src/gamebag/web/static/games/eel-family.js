// The table of the Eel family (Wriggle Roulette and Eel Harvest): the bag, the snakes in the
// centre against the outbreak threshold, each player's reserve and score, the secret grabs
// (who has chosen, never what) and the animated reveal of the last grab.
import { h, seatName, svg } from "../js/common.js";
import { catalogue, formatList, language } from "../js/i18n.js";

const { _, ngettext } = catalogue("eel_family");

const EEL = { body: "#8fd694", edge: "#2f7a3b" };
const SNAKE = { body: "#e4583e", edge: "#6e1a0c" };

/** One wooden token: a wiggly eel (green) or snake (red with a dark pattern). */
export function token(kind, extraClass) {
  const colours = kind === "snake" ? SNAKE : EEL;
  const path = "M3 9 C 7 2, 11 2, 15 8 S 23 15, 27 7";
  const picture = svg(
    "svg",
    { viewBox: "0 0 30 16", class: `token ${kind}${extraClass ? ` ${extraClass}` : ""}`, role: "img", "aria-label": kind === "snake" ? _("snake") : _("eel") },
    svg("path", { d: path, fill: "none", stroke: colours.edge, "stroke-width": 6, "stroke-linecap": "round" }),
    svg("path", { d: path, fill: "none", stroke: colours.body, "stroke-width": 4, "stroke-linecap": "round" }),
    kind === "snake"
      ? svg("path", { d: path, fill: "none", stroke: colours.edge, "stroke-width": 2, "stroke-dasharray": "2 3" })
      : null,
    svg("circle", { cx: 27, cy: 7, r: 2.6, fill: colours.edge }),
  );
  return picture;
}

/** Whether the table plays Eel Harvest, whose rulebook says "draw" where Wriggle Roulette's says "grab". */
function isHarvest(view) {
  return !!view && view.game === "eel-harvest";
}

/** Counted tokens in the reader's language: "1 eel", "3 snakes". */
function eelCount(n) {
  return ngettext("{n} eel", "{n} eels", n);
}

function snakeCount(n) {
  return ngettext("{n} snake", "{n} snakes", n);
}

/** Sentences side by side: a space between them, none in Japanese and Chinese. */
function sentences(...texts) {
  const gap = language === "ja" || language.startsWith("zh") ? "" : " ";
  return texts.filter((text) => text).join(gap);
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
    return h("div", { class: "bag", id: "bag" }, h("div", {}, _("D4 dice")), h("div", { class: "small" }, _("1 in 4 is a snake")));
  }
  return h(
    "div",
    { class: "bag", id: "bag", title: _("the bag") },
    h("div", { class: "small" }, _("BAG")),
    h("div", {}, eelCount(bag.eels)),
    h("div", {}, snakeCount(bag.snakes)),
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
  const harvest = isHarvest(view);
  const drawnSnakes = sum(last.snakes !== undefined ? last.snakes : [...Array(view.players).keys()].map((p) => drawnOf(last, p).snakes));
  // The view before this draw: of the round it ended (the outbreak view already shows the next one).
  const before = previous && !previous.over && (previous.round === view.round - 1 || (view.over && previous.round === view.round)) ? previous : null;
  const centre = before ? before.centre_snakes : null;
  let reach;
  if (centre === null) {
    const params = { threshold: view.threshold };
    reach = harvest
      ? ngettext("The snakes in the centre reached the outbreak number, {threshold}, with {n} snake in this draw.",
        "The snakes in the centre reached the outbreak number, {threshold}, with {n} snakes in this draw.", drawnSnakes, params)
      : ngettext("The snakes in the centre reached the outbreak number, {threshold}, with {n} snake in this grab.",
        "The snakes in the centre reached the outbreak number, {threshold}, with {n} snakes in this grab.", drawnSnakes, params);
  } else {
    const params = { total: centre + drawnSnakes, before: centre, drawn: drawnSnakes, threshold: view.threshold };
    reach = harvest
      ? _("The snakes in the centre reached {total} ({before} before and {drawn} in this draw); {threshold} make an outbreak.", params)
      : _("The snakes in the centre reached {total} ({before} before and {drawn} in this grab); {threshold} make an outbreak.", params);
  }
  const stillIn = [];
  for (let p = 0; p < view.players; p += 1) if (last.counts[p] !== null && last.counts[p] !== undefined && last.counts[p] !== 0) stillIn.push(p);
  const losers = last.losers.map((p) => names[p]);
  const who = formatList(losers);
  const many = losers.length > 1;
  const options = view.options || {};
  const had = before ? last.losers.map((p) => before.reserves[p] + drawnOf(last, p).eels) : null;
  let lost;
  if (harvest) {
    const most = Math.max(...last.losers.map((p) => last.counts[p]));
    if (!had) {
      lost = many
        ? _("{who} drew the most tokens in this draw ({most}) and lose every eel.", { who, most })
        : _("{who} drew the most tokens in this draw ({most}) and loses every eel.", { who, most });
    } else if (many) {
      const eels = formatList(had.map((n, i) => _("{name} {eels}", { name: losers[i], eels: eelCount(n) })));
      lost = _("{who} drew the most tokens in this draw ({most}) and lose every eel ({eels}).", { who, most, eels });
    } else {
      lost = _("{who} drew the most tokens in this draw ({most}) and loses every eel ({eels}).", { who, most, eels: eelCount(had[0]) });
    }
  } else if (had) {
    const eels = eelCount(had[0]);
    lost = many
      ? _("{who} hold the most eels in reserve ({eels}) and lose them all.", { who, eels })
      : _("{who} holds the most eels in reserve ({eels}) and loses them all.", { who, eels });
  } else {
    lost = many
      ? _("{who} hold the most eels in reserve and lose them all.", { who })
      : _("{who} holds the most eels in reserve and loses them all.", { who });
  }
  const others = stillIn.filter((p) => !last.losers.includes(p));
  const wholeReserve = !harvest || options.outbreak_scores_reserve;
  const scores = others.map((p) => _("{name} +{points}", { name: names[p], points: last.scored[p] })).join(_(", "));
  let scoring;
  if (others.length) {
    scoring = wholeReserve
      ? _("The others still in score their whole reserve: {scores}.", { scores })
      : _("The others still in score only the eels they drew in this draw: {scores}.", { scores });
    if (!wholeReserve && before) {
      const back = others
        .map((p) => [p, before.reserves[p]])
        .filter(([, n]) => n > 0)
        .map(([p, n]) => _("{name}'s {eels}", { name: names[p], eels: eelCount(n) }));
      scoring = sentences(scoring, back.length
        ? _("The rest of their reserves goes back to the bag unscored ({eels}).", { eels: formatList(back) })
        : _("Nobody else had eels in reserve to lose."));
    } else if (!wholeReserve) {
      scoring = sentences(scoring, _("The rest of their reserves goes back to the bag unscored."));
    }
  } else {
    scoring = _("Nobody else was still in the round.");
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
    h("div", { class: "caption" }, _("Snake outbreak!")),
    h("div", { class: "tokens" }, slots),
    h("div", { class: "small", id: "outbreak-story" }, sentences(story.reach, story.lost, story.scoring, _("The round ended."))),
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
    h("div", { class: "caption" }, _("Snakes in the centre: {snakes} of {threshold}", { snakes: view.centre_snakes, threshold: view.threshold })),
    h("div", { class: "tokens" }, slots),
    h("div", { class: "small" }, left > 0
      ? ngettext("{n} more snake and the round ends in an outbreak", "{n} more snakes and the round ends in an outbreak", left)
      : _("Outbreak!")),
  );
}

function lastGrabNode(view, p, animate) {
  const last = view.last_grab;
  if (!last || last.counts[p] === null || last.counts[p] === undefined) return null;
  const count = last.counts[p];
  const parts = [];
  if (count === 0) {
    parts.push(h("span", {}, _("exited, scored {points}", { points: last.scored[p] })));
  } else {
    const drawn = drawnOf(last, p);
    const pieces = [...drawn.order].map((t, i) => {
      const piece = token(t === "S" ? "snake" : "eel", animate ? "reveal" : "");
      if (animate) piece.style.animationDelay = `${0.12 * i + 0.1 * p}s`;
      return piece;
    });
    const took = isHarvest(view) ? _("drew {count}:", { count }) : _("grabbed {count}:", { count });
    parts.push(h("span", {}, `${took} `), h("span", { class: "tokens", style: { display: "inline-flex" } }, pieces));
    if (last.losers.includes(p)) parts.push(h("div", { class: "badge out" }, _("lost their eels")));
    else if (last.scored[p] > 0) parts.push(h("div", { class: "badge chosen" }, _("scored {points}", { points: last.scored[p] })));
  }
  const heading = isHarvest(view) ? _("Last draw:") : _("Last grab:");
  return h("div", { class: "small last-grab", style: { marginTop: "0.3em" } }, heading, " ", parts);
}

function playerNode(context, p) {
  const { view, table, seat } = context;
  const choices = view.choices || { waiting_for: [], chosen: [] };
  const inRound = view.in_round[p];
  const badges = [];
  if (p === seat) badges.push(h("span", { class: "badge" }, _("you")));
  if (p === view.start_player) badges.push(h("span", { class: "badge" }, _("start")));
  if (table.seats[p].bot) badges.push(h("span", { class: "badge" }, _("bot")));
  let status;
  if (view.over) status = view.winners.includes(p) ? h("span", { class: "badge chosen" }, _("winner")) : null;
  else if (!inRound) status = h("span", { class: "badge out" }, _("out of the round"));
  else if (choices.chosen.includes(p)) status = h("span", { class: "badge chosen", "data-chosen": p }, _("has chosen ✓"));
  else if (choices.waiting_for.includes(p)) status = h("span", { class: "badge waiting" }, _("choosing…"));
  const target = view.target;
  return h(
    "div",
    {
      class: `player${p === seat ? " me" : ""}${inRound || view.over ? "" : " out"}`,
      id: `player-${p}`,
    },
    h("div", { class: "name" }, seatName(table, p), badges),
    h("div", { class: "row" }, h("span", { class: "score" }, view.scores[p]), h("span", { class: "small" }, ngettext("of {n} point", "of {n} points", target))),
    h("div", { class: "meter" }, h("span", { style: { width: `${Math.min(100, (100 * view.scores[p]) / target)}%` } })),
    h("div", { class: "small", style: { marginTop: "0.35em" } }, _("Reserve: {eels}", { eels: eelCount(view.reserves[p]) })),
    h("div", { class: "tokens" }, tokens(view.reserves[p], "eel", 14, "")),
    h("div", { style: { marginTop: "0.3em" } }, status),
    lastGrabNode(view, p, context.animate),
  );
}

function render(context) {
  const { view, table, board, controls, legal, act } = context;
  const startName = seatName(table, view.start_player);
  const harvest = isHarvest(view);
  board.appendChild(
    h(
      "div",
      { class: "info-line" },
      h("strong", {}, _("Round {round}", { round: view.round })),
      h("span", {}, harvest ? _("draw {grab}", { grab: view.grab }) : _("grab {grab}", { grab: view.grab })),
      h("span", {}, _("{name} starts", { name: startName })),
      h("span", {}, harvest
        ? _("to {target} points, checked at each round's end", { target: view.target })
        : _("first to {target} points", { target: view.target })),
      h("span", {}, harvest ? _("at most {most} a draw", { most: view.max_grab }) : _("at most {most} a grab", { most: view.max_grab })),
    ),
  );
  board.appendChild(h("div", { class: "centre" }, bagNode(view), centreNode({ ...context, names: table.seats.map((s) => s.name) })));
  const grid = h("div", { class: "player-grid" });
  for (let p = 0; p < view.players; p += 1) grid.appendChild(playerNode(context, p));
  board.appendChild(grid);
  if (legal.length) {
    const mine = view.choices ? view.choices.mine : null;
    const me = context.seat;
    controls.appendChild(h("h3", {}, harvest ? _("How many will you draw?") : _("How many will you grab?")));
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
              "aria-label": count === 0
                ? _("Exit the round and score {points}", { points: view.reserves[me] })
                : harvest ? _("Draw {count}", { count }) : _("Grab {count}", { count }),
              onclick: () => act(count),
            },
            count === 0 ? _("Exit +{points}", { points: view.reserves[me] }) : String(count),
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
  const harvest = isHarvest(view);
  const most = view.max_grab;
  const threshold = view.threshold;
  const target = view.target;
  const lines = harvest
    ? [
      _("Everyone draws in secret at the same time: choose how many tokens to take from the bag (0 to {most}).", { most }),
      _("Eels you draw go to your reserve in front of you (not yet points). Snakes go to the centre of the table for all to see."),
    ]
    : [
      _("Everyone grabs in secret at the same time: choose how many tokens to take from the bag (0 to {most}).", { most }),
      _("Eels you grab go to your reserve in front of you (not yet points). Snakes go to the centre of the table for all to see."),
    ];
  if (harvest) {
    lines.push(options.outbreak_scores_reserve
      ? _("When the snakes in the centre reach {threshold}, there is a snake outbreak: whoever drew the most tokens in this draw (all tied) loses every eel they have; every other player still in scores their whole reserve.", { threshold })
      : _("When the snakes in the centre reach {threshold}, there is a snake outbreak: whoever drew the most tokens in this draw (all tied) loses every eel they have; every other player still in scores only the eels they drew in this draw; the rest of their reserve goes back to the bag unscored.", { threshold }));
    lines.push(_("Drawing 0 means you exit the round: you score the eels in your reserve and sit out until the next round."));
    lines.push(_("At the end of a round, if someone has {target} or more points, the game ends: the highest score wins (among tied players, whoever exited earlier in the final round loses).", { target }));
  } else {
    lines.push(_("When the snakes in the centre reach {threshold}, there is a snake outbreak: whoever still in holds the most eels in reserve (all tied) loses them all; everyone else still in the round scores their whole reserve.", { threshold }));
    lines.push(_("Grabbing 0 means you exit the round: you score your reserve at once and sit out until the next round."));
    lines.push(_("The game ends after the grab in which someone reaches {target} points; the highest score wins (a tie shares the win).", { target }));
  }
  if (view.bag && view.bag.dice) lines.push(_("Each token drawn is a D4 roll: a snake with chance 1 in 4, and the bag never runs out."));
  if (options.rotate_start) lines.push(_("The start player moves one seat to the left each round."));
  const lone = options.lone_player_grabs;
  if (lone !== null && lone !== undefined) {
    lines.push(harvest
      ? ngettext("When one player is left in the round, they may draw {n} more time; then they exit automatically, scoring their reserve.",
        "When one player is left in the round, they may draw {n} more times; then they exit automatically, scoring their reserve.", lone)
      : ngettext("When one player is left in the round, they may grab {n} more time; then they exit automatically, scoring their reserve.",
        "When one player is left in the round, they may grab {n} more times; then they exit automatically, scoring their reserve.", lone));
  }
  return lines;
}

/** The rulebook's own winning condition, in the reader's language. */
function rulebookWords(game) {
  if (game === "wriggle-roulette") return _("The first player to reach 20 points wins the game immediately.");
  if (game === "eel-harvest") {
    return _("At the end of a round, if a player reaches 20 points, the game ends. The player with the highest score wins. In case of a tie, the player who exited earlier in the final round is the loser. If still tied, victory is shared.");
  }
  return null;
}

function rulebookWin(context) {
  const words = rulebookWords(context.table.game);
  if (!words) return null;
  const target = context.view.target;
  return target === 20 ? words : sentences(words, _("(This table plays to {target} points.)", { target }));
}

function hint(context) {
  const { view, seat } = context;
  const reserve = view.reserves[seat];
  const left = view.threshold - view.centre_snakes;
  return sentences(
    _("Secret until everyone has chosen."),
    ngettext("{n} more snake in the centre ends the round in an outbreak.", "{n} more snakes in the centre ends the round in an outbreak.", left),
    ngettext("Exit scores your {n} eel now and sits out the round.", "Exit scores your {n} eels now and sits out the round.", reserve),
  );
}

function privateInfo(context) {
  const { view, seat } = context;
  const most = Math.max(...view.reserves.filter((r, p) => view.in_round[p]), 0);
  const risk = context.table.game === "wriggle-roulette" && view.in_round[seat] && view.reserves[seat] > 0 && view.reserves[seat] >= most;
  const params = { points: ngettext("{n} point", "{n} points", view.scores[seat]), eels: eelCount(view.reserves[seat]) };
  let words;
  if (risk) words = _("{points}, {eels} in reserve (the most: at risk in an outbreak).", params);
  else if (view.in_round[seat] || view.over) words = _("{points}, {eels} in reserve.", params);
  else words = _("{points}, {eels} in reserve; you are out of this round until the next one.", params);
  return h("div", { id: "my-reserve" }, h("strong", {}, _("You:")), " ", words);
}

function explainEnd(context, result) {
  const { view, names } = context;
  const target = view.target;
  const winners = formatList(result.winners.map((p) => _("{name} ({score})", { name: names[p], score: view.scores[p] })));
  const reached = view.scores.map((score, p) => [score, p]).filter(([score]) => score >= target).map(([, p]) => names[p]);
  if (!result.winners.length) return _("Nobody won.");
  const many = result.winners.length > 1;
  if (reached.length) {
    const params = { reached: formatList(reached), target, winners };
    return many
      ? _("{reached} reached {target} points; {winners} share the highest score.", params)
      : _("{reached} reached {target} points; {winners} has the highest score.", params);
  }
  return many
    ? _("The round limit ended the game; {winners} share the highest score.", { winners })
    : _("The round limit ended the game; {winners} has the highest score.", { winners });
}

export const eelExtras = {
  howToPlay, hint, privateInfo, explainEnd, rulebookWin,
};

export function eelRenderer() {
  return { render, describe, label, ...eelExtras };
}

function label(count, view) {
  if (count === 0) return _("exit the round");
  return isHarvest(view) ? _("draw {count}", { count }) : _("grab {count}", { count });
}

function describe(previous, next, context) {
  const names = context.names;
  const lines = [];
  const newGrab =
    next.last_grab &&
    (previous.round !== next.round || previous.grab !== next.grab || (next.over && !previous.over));
  if (newGrab) {
    const last = next.last_grab;
    const harvest = isHarvest(next);
    const exits = [];
    for (let p = 0; p < next.players; p += 1) {
      const count = last.counts[p];
      if (count === null || count === undefined) continue;
      if (count === 0) {
        exits.push(_("{name} exits the round and scores {points}.", { name: names[p], points: last.scored[p] }));
        continue;
      }
      const drawn = drawnOf(last, p);
      const params = { name: names[p], count, eels: eelCount(drawn.eels), snakes: snakeCount(drawn.snakes) };
      let text = harvest
        ? _("{name} draws {count}: {eels}, {snakes}.", params)
        : _("{name} grabs {count}: {eels}, {snakes}.", params);
      if (last.exited.includes(p)) text = sentences(text, _("Then {name} must exit, scoring {points}.", { name: names[p], points: last.scored[p] }));
      lines.push(text);
    }
    lines.unshift(...exits);
    if (last.outbreak) {
      const story = outbreakStory(next, previous, names);
      lines.push({ kind: "big", text: _("Snake outbreak! {reach}", { reach: story.reach }) });
      lines.push({ kind: "big", text: story.lost });
      lines.push(story.scoring);
    } else if (last.round_over) {
      lines.push(_("Everyone has exited: the round is over."));
    }
  }
  if (next.round !== previous.round && !next.over) {
    lines.push({ kind: "round", text: _("Round {round} begins; {name} starts.", { round: next.round, name: names[next.start_player] }) });
  }
  if (next.over && !previous.over) {
    const winners = formatList(next.winners.map((p) => _("{name} ({score})", { name: names[p], score: next.scores[p] })));
    lines.push({
      kind: "big",
      text: next.winners.length > 1 ? _("Game over: {winners} share the win.", { winners }) : _("Game over: {winners} wins.", { winners }),
    });
  }
  return lines;
}

export default eelRenderer("wriggle-roulette");
