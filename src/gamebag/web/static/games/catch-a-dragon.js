// The table of Catch A Dragon By The Tail: the die's colour ring, the eggs just rolled, the
// hatchlings collected with their linked chains lit up, the set's points and each breeder's fame.
import { h, sameJson, seatName } from "../js/common.js";
import { catalogue, formatList, formatNumber } from "../js/i18n.js";

const { _, ngettext } = catalogue("catch_a_dragon");
const num = (value) => formatNumber(value);

/** A dragon's colour in the reader's words (the colour codes of the view stay as they are). */
function colourName(colour) {
  switch (colour) {
    case "green": return _("green");
    case "gold": return _("gold");
    case "blue": return _("blue");
    case "red": return _("red");
    case "purple": return _("purple");
    case "gray": return _("gray");
    case "grey": return _("gray");
    case "white": return _("white");
    case "black": return _("black");
    case "orange": return _("orange");
    case "yellow": return _("yellow");
    case "pink": return _("pink");
    case "brown": return _("brown");
    case "silver": return _("silver");
    case "teal": return _("teal");
    default: return String(colour);
  }
}

const COLOURS = {
  green: "#2e9d4f", gold: "#d4a017", blue: "#2f6fd6", red: "#d33a2c", purple: "#8a4fc9", gray: "#80868f",
  grey: "#80868f", white: "#c9c9c9", black: "#333", orange: "#e07b24", yellow: "#e3c324", pink: "#d9669b",
};

function colourOf(name) {
  if (COLOURS[name]) return COLOURS[name];
  let hash = 0;
  for (const c of String(name)) hash = (hash * 31 + c.charCodeAt(0)) % 360;
  return `hsl(${hash}, 55%, 45%)`;
}

// The die's number in white or black, whichever stands out more on its colour: white on
// gold is 2.4:1, under WCAG's 4.5:1 for text of its size.
function rgbOf(colour) {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour);
  if (hex) {
    const digits = hex[1].length === 3 ? [...hex[1]].map((d) => d + d) : hex[1].match(/../g);
    return digits.map((d) => parseInt(d, 16));
  }
  const [hue, saturation, lightness] = colour.match(/[\d.]+/g).map(Number); // hsl(h, s%, l%) above
  const s = saturation / 100;
  const l = lightness / 100;
  const channel = (n) => {
    const k = (n + hue / 30) % 12;
    return 255 * (l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1)));
  };
  return [channel(0), channel(8), channel(4)];
}

function luminance(colour) {
  const linear = (c) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  const [r, g, b] = rgbOf(colour).map(linear);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const DARK_INK = "#000"; // pure black: with white, one of the two always reaches 4.58:1

function inkOn(colour) {
  const background = luminance(colour);
  const onWhite = 1.05 / (background + 0.05);
  const onDark = (background + 0.05) / (luminance(DARK_INK) + 0.05);
  return onWhite >= onDark ? "light" : "dark";
}

/** A colour and its face number, as the log and the buttons say it: "green 1". */
export function colourWords(colour, view) {
  const number = (view.faces || []).indexOf(colour) + 1;
  return number > 0 ? _("{colour} {number}", { colour: colourName(colour), number: num(number) }) : colourName(colour);
}

/** One die drawn in its colour, its face number (its place on the ring) as the label. */
export function die(colour, view, extraClass, delay) {
  const faces = view.faces || [];
  const number = faces.indexOf(colour) + 1;
  const node = h(
    "span",
    {
      class: `die ink-${inkOn(colourOf(colour))}${extraClass ? ` ${extraClass}` : ""}`, style: { background: colourOf(colour) },
      title: colourWords(colour, view), role: "img", "aria-label": colourWords(colour, view), "data-colour": colour,
    },
    number > 0 ? String(number) : "",
  );
  if (delay) node.style.animationDelay = `${delay}s`;
  return node;
}

/** A die with its colour's name under it (the dice on the table, which the log names). */
function namedDie(colour, view, extraClass, delay) {
  return h("span", { class: "named-die" }, die(colour, view, extraClass, delay), h("span", { class: "die-name" }, colourName(colour)));
}

function inChain(view) {
  const lit = new Set();
  for (const chain of view.chains || []) if (chain.length >= 2) for (const colour of chain) lit.add(colour);
  return lit;
}

function ringNode(view) {
  const faces = view.faces || [];
  const items = [];
  faces.forEach((colour, i) => {
    items.push(die(colour, view, "small"));
    if (i < faces.length - 1 || view.cyclic) items.push(h("span", { class: "small" }, "→"));
  });
  if (view.cyclic && faces.length) items.push(die(faces[0], view, "small"));
  return h(
    "div",
    { id: "ring" },
    h("div", { class: "caption" }, _("Claw holds tail: colours next on this ring link into chains")),
    h("div", { class: "dice-row" }, items),
  );
}

function setText(view) {
  if (!view.collected || !view.collected.length) return _("no hatchlings yet");
  const points = view.set_points;
  if (view.set_kind === "identical") return ngettext("identical set: {n} point", "identical set: {n} points", points);
  if (view.set_kind === "different") return ngettext("different set: {n} point", "different set: {n} points", points);
  // A set of one dragon, which may still become identical or different.
  if (view.set_kind === "one") return ngettext("one set: {n} point", "one set: {n} points", points);
  return ngettext("set: {n} point", "set: {n} points", points);
}

function turnNode(context) {
  const { view, table, animate } = context;
  const lit = inChain(view);
  const rolled = view.rolled || [];
  const collected = view.collected || [];
  return h(
    "div",
    { id: "turn-area", class: "grow" },
    h("div", { class: "caption" }, view.over ? _("Final position") : _("{name} is hatching", { name: seatName(table, view.turn_seat) })),
    h("div", { class: "small" }, _("Eggs just rolled")),
    h(
      "div",
      { class: "dice-row", id: "rolled" },
      rolled.length ? rolled.map((c, i) => namedDie(c, view, animate ? "rolling" : "", 0.08 * i)) : h("span", { class: "small" }, "—"),
    ),
    h("div", { class: "small", style: { marginTop: "0.5em" } }, _("Hatchlings collected ({set})", { set: setText(view) })),
    h(
      "div",
      { class: "dice-row", id: "collected" },
      collected.length ? collected.map((c) => namedDie(c, view, lit.has(c) ? "chain" : "")) : h("span", { class: "small" }, "—"),
    ),
    view.over ? null : h("div", { class: "small", id: "eggs-left" }, ngettext("{n} egg left to roll", "{n} eggs left to roll", view.dice_left ?? 0)),
  );
}

function colourList(colours, view) {
  return formatList(colours.map((c) => colourWords(c, view)));
}

function lastTurnText(view, names) {
  const last = view.last_turn;
  if (!last) return null;
  const who = names[last.seat] || _("Seat {number}", { number: num(last.seat + 1) });
  const words = { name: who, points: num(last.points) };
  if (last.ended_by === "bust") {
    const rolled = last.last_roll && last.last_roll.length;
    if (rolled) words.dice = colourList(last.last_roll, view);
    // A variant may still score a bust: a consolation card drawn (prize_drawn), or a fixed prize.
    if (last.prize_drawn) {
      return rolled
        ? _("{name} busts (rolled {dice}), draws a consolation card and scores {points}.", words)
        : _("{name} busts, draws a consolation card and scores {points}.", words);
    }
    if (last.points) return rolled ? _("{name} busts (rolled {dice}) and scores {points}.", words) : _("{name} busts and scores {points}.", words);
    return rolled ? _("{name} busts (rolled {dice}) and scores nothing.", words) : _("{name} busts and scores nothing.", words);
  }
  const held = last.collected && last.collected.length;
  if (held) words.dice = colourList(last.collected, view);
  if (last.ended_by === "stop") {
    return held ? _("{name} stops and scores {points} with {dice}.", words) : _("{name} stops and scores {points}.", words);
  }
  return held ? _("{name} ends the turn and scores {points} with {dice}.", words) : _("{name} ends the turn and scores {points}.", words);
}

function render(context) {
  const { view, table, board, controls, legal, act, seat } = context;
  const names = table.seats.map((s) => s.name);
  board.appendChild(
    h(
      "div",
      { class: "info-line" },
      h("strong", {}, view.tiebreak_round ? _("Tie-break round {round}", { round: num(view.tiebreak_round) }) : _("Round {round} of {rounds}", { round: num(view.round), rounds: num(view.rounds) })),
      h("span", {}, view.duplicate_bust === "any" ? _("a colour you already hold busts a set of different colours") : _("only a roll with no new colour busts a set of different colours")),
    ),
  );
  const last = lastTurnText(view, names);
  board.appendChild(
    h(
      "div",
      { class: "centre" },
      turnNode(context),
      h("div", {}, ringNode(view), last ? h("div", { class: "small", style: { marginTop: "0.6em" }, id: "last-turn" }, _("Last turn: {turn}", { turn: last })) : null),
    ),
  );
  const grid = h("div", { class: "player-grid" });
  const best = Math.max(...view.scores, 1);
  for (let p = 0; p < view.players; p += 1) {
    const active = !view.over && p === view.turn_seat;
    grid.appendChild(
      h(
        "div",
        { class: `player${p === seat ? " me" : ""}${active ? " active" : ""}`, id: `player-${p}` },
        h(
          "div",
          { class: "name" },
          seatName(table, p),
          p === seat ? h("span", { class: "badge" }, _("you")) : null,
          table.seats[p].bot ? h("span", { class: "badge" }, _("bot")) : null,
          active ? h("span", { class: "badge turn" }, _("hatching")) : null,
          view.over && view.winners.includes(p) ? h("span", { class: "badge chosen" }, _("winner")) : null,
        ),
        h("div", { class: "row" }, h("span", { class: "score" }, num(view.scores[p])), h("span", { class: "small" }, _("fame"))),
        h("div", { class: "meter" }, h("span", { style: { width: `${(100 * view.scores[p]) / best}%` } })),
      ),
    );
  }
  board.appendChild(grid);
  if (legal.length && legal.some(Array.isArray)) {
    collectControls(context);
  } else if (legal.length) {
    controls.appendChild(h("h3", {}, _("Stop or roll again?")));
    controls.appendChild(
      h(
        "div",
        { class: "choices" },
        legal.map((action) =>
          h(
            "button",
            { "data-action": JSON.stringify(action), class: action === "roll" ? "primary" : "", onclick: () => act(action) },
            Array.isArray(action)
              ? h("span", { class: "dice-row", style: { minHeight: 0 } }, _("Collect") + " ", action.map((c) => die(c, view, "small")))
              : action === "stop"
                ? _("Stop and score {points}", { points: num(view.set_points) })
                : ngettext("Roll {n} egg", "Roll {n} eggs", view.dice_left),
          ),
        ),
      ),
    );
  }
}

/** How many of each colour a list of colours holds. */
function countColours(colours) {
  const counts = new Map();
  for (const colour of colours) counts.set(colour, (counts.get(colour) || 0) + 1);
  return counts;
}

/** Whether ``part`` (colours) fits inside ``whole`` (colours), as collections of dice. */
function within(part, whole) {
  const have = countColours(whole);
  for (const [colour, count] of countColours(part)) if ((have.get(colour) || 0) < count) return false;
  return true;
}

/**
 * Why adding ``colour`` to the dice already picked fits no legal collection, in one line. The
 * rules behind it: a set is all one colour or all different colours, and the hatchlings picked
 * join the ones already held.
 */
function whyNot(colour, picked, view) {
  const held = view.collected || [];
  const die_ = colourWords(colour, view);
  if (view.set_kind === "identical" && held.length && colour !== held[0]) {
    return _("{die} does not fit: your set is all {colour}, so only {colour} hatchlings join it.", { die: die_, colour: colourName(held[0]) });
  }
  if (held.includes(colour)) {
    return _("{die} does not fit: you already hold {colour}, and a set of different colours takes each colour once.", { die: die_, colour: colourName(colour) });
  }
  const pickedColours = new Set(picked);
  if (pickedColours.size === 1 && picked.length >= 2 && !pickedColours.has(colour)) {
    return ngettext(
      "{die} does not fit: you picked {n} {colour}, and a set of one colour takes only {colour}.",
      "{die} does not fit: you picked {n} {colour}, and a set of one colour takes only {colour}.",
      picked.length, { die: die_, colour: colourName(picked[0]) },
    );
  }
  if (pickedColours.has(colour)) {
    return _("{die} does not fit: with different colours picked (or held), each colour is taken once.", { die: die_ });
  }
  return _("{die} does not fit with what you picked: a set is all one colour or all different colours.", { die: die_ });
}

/**
 * The eggs just rolled as dice to tap: the ones some legal collection takes are lit, a tap
 * picks (or puts back) a die, a die that cannot join what is picked says why in one line, and
 * Collect takes exactly the dice picked once they make a legal collection.
 */
function collectControls(context) {
  const { view, legal, controls, act } = context;
  const options = legal.filter(Array.isArray);
  const rolled = view.rolled || [];
  const picked = new Set(); // indices into the roll
  const why = h("p", { class: "small pick-why", id: "collect-why", role: "status", "aria-live": "polite", hidden: true });
  const button = h("button", { type: "button", class: "primary", id: "collect", disabled: true });
  const pickedColours = () => [...picked].sort((a, b) => a - b).map((i) => rolled[i]);
  const matching = (colours) => options.find((action) => action.length === colours.length && within(colours, action));
  const dice = rolled.map((colour, index) => {
    const node = h("button", {
      type: "button", class: `die die-pick ink-${inkOn(colourOf(colour))}`, "data-pick": index, "data-colour": colour,
      style: { background: colourOf(colour) }, "aria-pressed": "false", "aria-label": _("Hatchling {die}", { die: colourWords(colour, view) }),
    }, String((view.faces || []).indexOf(colour) + 1 || ""));
    node.addEventListener("click", () => {
      const colours = pickedColours();
      if (picked.has(index)) picked.delete(index);
      else if (options.some((action) => within([...colours, colour], action))) picked.add(index);
      else {
        why.textContent = whyNot(colour, colours, view);
        why.hidden = false;
        return;
      }
      why.hidden = true;
      why.textContent = "";
      refresh();
    });
    return node;
  });
  function refresh() {
    const colours = pickedColours();
    dice.forEach((node, index) => {
      const on = picked.has(index);
      const fits = on || options.some((action) => within([...colours, rolled[index]], action));
      node.setAttribute("aria-pressed", on ? "true" : "false");
      node.classList.toggle("picked", on);
      node.classList.toggle("fits", fits);
      node.classList.toggle("no-fit", !fits);
    });
    const action = colours.length ? matching(colours) : null;
    button.disabled = !action;
    if (action) button.dataset.action = JSON.stringify(action);
    else delete button.dataset.action;
    button.textContent = action ? _("Collect {dice}", { dice: colourList(colours, view) }) : _("Collect");
  }
  button.addEventListener("click", () => {
    const action = matching(pickedColours());
    if (action) act(action);
  });
  refresh();
  controls.appendChild(h("h3", {}, _("Tap the hatchlings to collect")));
  controls.appendChild(h("div", { class: "pick-row" },
    h("div", { class: "dice-row", role: "group", "aria-label": _("Eggs just rolled") }, dice), button));
  controls.appendChild(why);
}

function label(action, view) {
  if (Array.isArray(action)) return _("collect {dice}", { dice: colourList(action, view) });
  return action === "stop" ? _("stop and score") : _("roll again");
}

function describe(previous, next, context) {
  const names = context.names;
  const lines = [];
  if (next.last_turn && !sameJson(previous.last_turn, next.last_turn)) lines.push(lastTurnText(next, names));
  if (next.round !== previous.round && !next.over) {
    lines.push({ kind: "round", text: next.tiebreak_round ? _("Tie-break round {round} begins.", { round: num(next.tiebreak_round) }) : _("Round {round} begins.", { round: num(next.round) }) });
  }
  const who = names[next.turn_seat];
  const sameTurn = previous.turn_seat === next.turn_seat && previous.round === next.round;
  const grew = (next.collected || []).length > (previous.collected || []).length;
  if (sameTurn && grew) {
    const added = next.collected.slice(previous.collected.length);
    lines.push(_("{name} collects {dice} ({set}).", { name: who, dice: colourList(added, next), set: setText(next) }));
  }
  // A roll: the dice were about to be rolled (or, seen from further away, the roll changed).
  const rolledNow = previous.phase === "roll" && next.phase !== "roll";
  if (next.rolled && next.rolled.length && (rolledNow || !sameJson(previous.rolled, next.rolled) || !sameTurn)) {
    lines.push(_("{name} rolls {dice}.", { name: who, dice: colourList(next.rolled, next) }));
  }
  if (next.over && !previous.over) {
    const winners = formatList(next.winners.map((p) => _("{name} ({score})", { name: names[p], score: num(next.scores[p]) })));
    lines.push({ kind: "big", text: next.winners.length > 1 ? _("Game over: {names} share the win.", { names: winners }) : _("Game over: {names} wins.", { names: winners }) });
  }
  return lines;
}

/** "How to play", with this table's numbers and options. */
function howToPlay(context) {
  const { view } = context;
  const faces = view.faces || [];
  let ring = faces.map((c) => colourWords(c, view)).join(" → ");
  if (view.cyclic && faces.length) ring = _("{ring} → back to {colour}", { ring, colour: colourName(faces[0]) });
  return [
    ngettext(
      "On your turn, roll the eggs ({n} die). Each face is a dragon colour, numbered by its place on the ring: {ring}.",
      "On your turn, roll the eggs ({n} dice). Each face is a dragon colour, numbered by its place on the ring: {ring}.",
      view.dice, { ring },
    ),
    _("Collect one or more hatchlings that fit your set: all the same colour, or all different."),
    _("Then stop and score, or roll the eggs you have not collected yet."),
    _("All the same: the count squared (3 of a kind = 9). All different: a lone dragon scores 1; colours that link into a chain on the ring (each next to the one before) score 2 each."),
    view.duplicate_bust === "any"
      ? _("If a roll gives nothing that fits your set, you bust and the turn scores nothing; with a set of different colours, rolling a colour you already hold busts too.")
      : _("If a roll gives nothing that fits your set (no new colour for a set of different colours), you bust and the turn scores nothing."),
    ngettext(
      "Play {n} round (everyone has one turn a round); the highest score wins, and a tie plays another round (at most {most}).",
      "Play {n} rounds (everyone has one turn a round); the highest score wins, and a tie plays another round (at most {most}).",
      view.rounds, { most: num(view.max_tiebreak_rounds) },
    ),
  ];
}

function hint(context) {
  const { view, legal } = context;
  if (legal.some(Array.isArray)) {
    return _("Tap the hatchlings to keep: all of one colour, or all different colours. Chains of neighbouring colours on the ring score double.");
  }
  return ngettext(
    "Stop: score {points} now. Roll: throw the {n} egg left; nothing that fits your set means a bust and 0 this turn.",
    "Stop: score {points} now. Roll: throw the {n} eggs left; nothing that fits your set means a bust and 0 this turn.",
    view.dice_left, { points: num(view.set_points) },
  );
}

function privateInfo(context) {
  const { view, seat } = context;
  return h("div", { id: "my-set" }, h("strong", {}, _("You: ")), ngettext("{n} fame point; this turn: {set}.", "{n} fame points; this turn: {set}.", view.scores[seat], { set: setText(view) }));
}

function explainEnd(context, result) {
  const { view, names } = context;
  const winners = result.winners.map((p) => _("{name} ({score})", { name: names[p], score: num(view.scores[p]) }));
  if (!winners.length) return _("Nobody won.");
  const words = { names: formatList(winners), round: num(view.rounds) };
  if (view.tiebreak_round) {
    return winners.length > 1
      ? ngettext(
        "{names} share the highest fame at the end of round {round} after {n} tie-break round.",
        "{names} share the highest fame at the end of round {round} after {n} tie-break rounds.",
        view.tiebreak_round, words,
      )
      : ngettext(
        "{names} has the highest fame at the end of round {round} after {n} tie-break round.",
        "{names} has the highest fame at the end of round {round} after {n} tie-break rounds.",
        view.tiebreak_round, words,
      );
  }
  return winners.length > 1
    ? _("{names} share the highest fame at the end of round {round}.", words)
    : _("{names} has the highest fame at the end of round {round}.", words);
}

export default {
  render, describe, label, howToPlay, hint, privateInfo, explainEnd,
  rulebookWin: (context) => {
    const rule = _("Play four complete rounds. The player with the highest score at the end of round four wins. If tied, all players play another round.");
    if (context.view.rounds === 4) return rule;
    return rule + " " + ngettext("(This table plays {n} round.)", "(This table plays {n} rounds.)", context.view.rounds);
  },
};
