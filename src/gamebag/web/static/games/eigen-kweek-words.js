// Eigen Kweek in the players' words: actions, phases and steps, the game's log lines, the
// coins a sow or plough-over costs and which coins pay it (the cheapest set, for there is no
// change), and the "How to play" guide with the numbers of the table's own options. Every word
// comes from the game's catalogue ("eigen_kweek", the same messages as games/eigen_kweek/logwords.py);
// character names are never translated.
import { catalogue, formatList } from "../js/i18n.js";

const { _, ngettext } = catalogue("eigen_kweek");

const PHASES = {
  deal: () => _("Deal characters"), growth: () => _("Growth"), trade: () => _("Trading"),
  cultivate: () => _("Sow, plough and harvest"), hand_in: () => _("Keep or hand in characters"),
  over: () => _("Game over"), setup: () => _("Setting up"),
};
const STEPS = {
  choose: () => _("everyone picks a character in secret"), window: () => _("characters may be played now"),
  bid: () => _("secret bids"), corner: () => _("taking corners in bid order"),
  ria_choice: () => _("RIA may draw a card from the stack"), ria_draw: () => _("RIA draws a card"),
  ria_direction: () => _("RIA passes the cards"), keep: () => _("keep your character or hand it in"),
  keun: () => _("KEUN picks a plant card"), griet: () => _("GRIET fills a plant card"),
  rob: () => _("PASTOOR picks an opponent"), rob_draw: () => _("PASTOOR takes a coin"),
  lucien_draw: () => _("LUCIEN draws a coin from the bag"), bernard: () => _("BERNARD picks a target"),
  cultivate: () => _("each player sows, ploughs or harvests"), refill: () => _("coins go onto the trading table"),
  deal: () => _("character cards are dealt"),
};

/** The rulebook's phase a character card is played in ("Deal characters", ..., "Any phase"). */
export function phaseName(code) {
  return code && PHASES[code] ? PHASES[code]() : _("Any phase");
}

/** Human words for the phase and step of the view (never the engine's codes). */
export function phaseWords(view) {
  if (view.over) return _("Game over");
  const phase = PHASES[view.phase] ? PHASES[view.phase]() : _("Playing");
  const step = view.step && view.step !== view.phase && STEPS[view.step] ? STEPS[view.step]() : "";
  return step ? _("{phase}: {step}", { phase, step }) : phase;
}

/** "3 weed tokens", "1 coin", "2 plant cards" in the reader's language. */
export const tokens = (n) => ngettext("{n} weed token", "{n} weed tokens", Number(n));
export const coins = (n) => ngettext("{n} coin", "{n} coins", Number(n));
const plantCards = (n) => ngettext("{n} plant card", "{n} plant cards", Number(n));

/** The coins of a payment such as "3+2+1", and what they add up to. */
export function paymentValue(payment) {
  return String(payment || "").split("+").filter(Boolean).reduce((sum, coin) => sum + Number(coin), 0);
}

/** What sowing or ploughing over the ``cost`` card costs this seat now (its FRANK halves it, rounding up). */
export function priceOf(view, kind, cost) {
  const rules = view.rules || {};
  const table = kind === "sow" ? rules.sow_cost : rules.plough_cost;
  const full = table && table[String(cost)] !== undefined ? Number(table[String(cost)]) : Number(cost);
  const frank = (view.plays || []).some((p) => p.card === "FRANK" && !p.blocked && p.seat === view.seat);
  return frank ? Math.ceil(full / 2) : full;
}

/** Sow and plough-over actions grouped by card: the price, the cheapest coins, the other ways to pay. */
export function paymentGroups(view, actions) {
  const groups = new Map();
  for (const action of actions) {
    const [kind, cost, payment] = action.split(":");
    const key = `${kind}:${cost}`;
    if (!groups.has(key)) groups.set(key, { kind, cost: Number(cost), options: [] });
    groups.get(key).options.push({ action, payment, value: paymentValue(payment), coins: payment.split("+").length });
  }
  for (const group of groups.values()) {
    group.options.sort((a, b) => a.value - b.value || a.coins - b.coins);
    group.price = priceOf(view, group.kind, group.cost);
  }
  return [...groups.values()];
}

/** "pay 3+3" or "pay 5+2 = 7 (no change given)". */
export function paymentWords(option, price) {
  const payment = option.payment.includes("+") ? `${option.payment} = ${option.value}` : option.payment;
  if (option.value > price) return _("pay {payment} ({over} over: no change given)", { payment, over: option.value - price });
  return _("pay {payment}", { payment });
}

/** Words for an action string such as "sow:6:3+3" or "bid:4". */
export function actionLabel(action, seatNames, view) {
  if (typeof action !== "string") return JSON.stringify(action);
  const [kind, ...rest] = action.split(":");
  const who = (index) => (seatNames && seatNames[Number(index)]) || _("player {number}", { number: Number(index) + 1 });
  const cost = rest[0];
  const pay = rest[1] || "?";
  switch (kind) {
    case "choose": return _("Keep {card}", { card: rest[0] });
    case "pass": return _("Pass");
    case "play": return _("Play {card}", { card: rest[0] });
    case "block": return _("Block {card} with JULITA", { card: rest[0] });
    case "take": return _("Take {player}'s card with DEN OLLANDER", { player: who(rest[0]) });
    case "ria": return {
      draw: () => _("Draw a card from the stack"), skip: () => _("Draw no card"),
      left: () => _("Everyone passes cards to the left"), right: () => _("Everyone passes cards to the right"),
    }[rest[0]]?.() || "RIA";
    case "keun": return _("Take the weed on {player}'s {cost}-card", { player: who(rest[0]), cost: rest[1] });
    case "griet": return _("Fill your {cost}-card", { cost });
    case "rob": return rest.length > 1 ? _("Take a {value}-coin from {player}", { value: rest[1], player: who(rest[0]) })
      : _("Take a coin from {player}", { player: who(rest[0]) });
    case "bernard": return _("Block {player} this cultivate phase", { player: who(rest[0]) });
    case "bid": return rest[0];
    case "corner": return _("Corner {corner}", { corner: rest[0] });
    case "sow": return view ? _("Sow the {cost}-card ({price}, pay {payment})", { cost, price: coins(priceOf(view, "sow", cost)), payment: pay })
      : _("Sow the {cost}-card (pay {payment})", { cost, payment: pay });
    case "plough": return view
      ? _("Plough the {cost}-card into a sack ({price}, pay {payment})", { cost, price: coins(priceOf(view, "plough", cost)), payment: pay })
      : _("Plough the {cost}-card into a sack (pay {payment})", { cost, payment: pay });
    case "harvest": return _("Harvest the {cost}-card", { cost });
    case "harvest_all": return _("Harvest all your plant cards (JOS)");
    case "keep": return _("Keep the card for next round");
    case "hand_in": return _("Hand the card in");
    default: return _("a move");
  }
}

const PHASE_LINES = {
  "Deal Characters": () => _("Deal characters: everyone is dealt character cards."),
  Growth: () => _("Growth: the plants grow."),
  Trade: () => _("Trading: everyone bids weed tokens for the coins on the trading table."),
  Cultivate: () => _("Sow, plough and harvest."),
  "Hand In Characters": () => _("Keep or hand in characters."),
};

const CARD = "([A-Z][A-Z ]*[A-Z])";
const SEAT = "(seat \\d+)";
const SEATS = "(seat \\d+(?:(?:, | and )seat \\d+)*)";
/** "seat 0 and seat 2" listed as the reader lists things (names are put in afterwards). */
const seats = (text) => formatList(text.match(/seat \d+/g) || []);

function hand(item) {
  const m = item.match(/^(seat \d+) bid (\d+)(?: \(counts (\d+)\))?$/);
  if (!m) return item;
  return m[3] === undefined ? _("{seat} bid {bid}", { seat: m[1], bid: m[2] })
    : _("{seat} bid {bid}, which counts as {count}", { seat: m[1], bid: m[2], count: m[3] });
}

// Every line of the game's public log and private notes (with "seat N" still in them), as
// games/eigen_kweek/logwords.py reads them: the pattern, then the words.
const LINES = [
  ["phase: (.+)", (title) => (PHASE_LINES[title] ? PHASE_LINES[title]() : title)],
  [`${SEAT} kept a character card and is dealt none`, (seat) => _("{seat} kept a character card and is dealt none", { seat })],
  ["everyone has chosen a character card", () => _("Everyone has picked a character")],
  [`${SEAT} plays ${CARD}, which finds nothing to act on`, (seat, card) => _("{seat} plays {card}, which finds nothing to act on", { seat, card })],
  [`KEUN of ${SEAT}: all weed tokens from the (\\d+) plant card of ${SEAT}`, (seat, cost, other) => _("KEUN of {seat}: all weed tokens from the {cost} plant card of {other}", { seat, cost, other })],
  [`GRIET of ${SEAT}: completely fill its own (\\d+) plant card`, (seat, cost) => _("GRIET of {seat}: completely fill its own {cost} plant card", { seat, cost })],
  [`PASTOOR of ${SEAT}: one coin(?: worth (\\d+))? from ${SEAT}`, (seat, value, other) => (value
    ? _("PASTOOR of {seat}: one coin worth {value} from {other}", { seat, value, other })
    : _("PASTOOR of {seat}: one coin from {other}", { seat, other }))],
  [`BERNARD of ${SEAT}: block ${SEAT} for the cultivate phase`, (seat, other) => _("BERNARD of {seat}: block {other} for the cultivate phase", { seat, other })],
  [`RIA: the stack is empty, so ${SEAT} takes no card`, (seat) => _("RIA: the stack is empty, so {seat} takes no card", { seat })],
  [`RIA: ${SEAT} takes no card from the stack`, (seat) => _("RIA: {seat} takes no card from the stack", { seat })],
  [`RIA: ${SEAT} draws a card from the stack`, (seat) => _("RIA: {seat} draws a card from the stack", { seat })],
  ["the plants grow: (\\d+) weed tokens? from the pot onto the plant cards( \\(the pot ran dry\\))?", (n, dry) => (dry
    ? _("the plants grow: {tokens} from the pot onto the plant cards (the pot ran dry)", { tokens: tokens(n) })
    : _("the plants grow: {tokens} from the pot onto the plant cards", { tokens: tokens(n) }))],
  ["everyone holds a closed hand forward", () => _("Everyone holds out a closed hand with a secret bid")],
  [`CHANTAL: ${SEAT} takes (\\d+) weed tokens? from the other hands`, (seat, n) => _("CHANTAL: {seat} takes {tokens} from the other hands", { seat, tokens: tokens(n) })],
  [`STEFAAN: ${SEAT} wins the tie at (\\d+)`, (seat, count) => _("STEFAAN: {seat} wins the tie at {count}", { seat, count })],
  ["all players open their hands: (.+)", (rest) => _("The hands open: {bids}", {
    bids: formatList((rest.match(/seat \d+ bid \d+(?: \(counts \d+\))?/g) || []).map(hand)) })],
  [`${SEATS} bid the same \\((\\d+)\\): no corner, and the bid goes back to the collection`, (who, count) => _("{seats} tie at {count}: no corner for them, and they keep their weed tokens", { seats: seats(who), count })],
  [`the order of choosing corners: ${SEATS}`, (who) => _("Corners are taken in this order: {seats}", { seats: seats(who) })],
  ["LUCIEN: the coin bag is empty", () => _("LUCIEN: the coin bag is empty")],
  [`LUCIEN: ${SEAT} bid the lowest and draws a coin from the bag`, (seat) => _("LUCIEN: {seat} bid the lowest and draws a coin from the bag", { seat })],
  [`${SEAT} takes the (\\d+) coins? of corner (\\d) and hands in its bid`, (seat, n, corner) => _("{seat} takes the {coins} of corner {corner} and pays the bid into the pot", { seat, coins: coins(n), corner })],
  [`${SEAT} does nothing`, (seat) => _("{seat} does nothing", { seat })],
  [`JOS: ${SEAT} harvests all plant cards: (\\d+) weed tokens?`, (seat, n) => _("JOS: {seat} harvests all plant cards: {tokens}", { seat, tokens: tokens(n) })],
  [`${SEAT} harvests (\\d+) weed tokens? from the (\\d+) card`, (seat, n, cost) => _("{seat} harvests {tokens} from the {cost} card", { seat, tokens: tokens(n), cost })],
  [`${SEAT} sows the (\\d+) card, paying ([\\d+]+) \\((\\d+)\\)`, (seat, cost, paid, value) => _("{seat} sows the {cost} card, paying {paid} ({value})", { seat, cost, paid, value })],
  [`${SEAT} ploughs over the (\\d+) card, paying ([\\d+]+) \\((\\d+)\\), and takes its (\\d+) weed tokens?: a potato sack`, (seat, cost, paid, value, n) => _("{seat} ploughs over the {cost} card, paying {paid} ({value}), and takes its {tokens}: a potato sack", { seat, cost, paid, value, tokens: tokens(n) })],
  [`four potato sacks: ${SEATS} wins?`, (who) => ((who.match(/seat \d+/g) || []).length > 1
    ? _("four potato sacks: {seats} win", { seats: seats(who) }) : _("four potato sacks: {seat} wins", { seat: who }))],
  [`${SEAT} keeps an unplayed character card`, (seat) => _("{seat} keeps an unplayed character card", { seat })],
  ["round cap of (\\d+) reached: the most potato sacks win", (rounds) => _("round cap of {rounds} reached: the most potato sacks win", { rounds })],
  ["the coin bag is empty: no coins go on the trading table", () => _("the coin bag is empty: no coins go on the trading table")],
  ["the coin bag holds only (\\d+) coins?: only those go on the table", (n) => _("the coin bag holds only {coins}: only those go on the table", { coins: coins(n) })],
  ["four coins are taken from the coin bag and placed on corners 1 to 4 of the trading table", () => _("Four coins from the bag go face down on corners 1, 2, 3 and 4 of the trading table")],
  [`${SEAT} plays JULITA and blocks ${CARD} of ${SEAT}`, (seat, card, other) => _("{seat} plays JULITA and blocks {card} of {other}", { seat, card, other })],
  [`${SEAT} plays DEN OLLANDER on ${SEAT}, who has no unplayed card left`, (seat, other) => _("{seat} plays DEN OLLANDER on {other}, who has no unplayed card left", { seat, other })],
  [`${SEAT} plays DEN OLLANDER and takes the unplayed card of ${SEAT}`, (seat, other) => _("{seat} plays DEN OLLANDER and takes the unplayed card of {other}", { seat, other })],
  [`${SEAT} plays ${CARD}`, (seat, card) => _("{seat} plays {card}", { seat, card })],
  [`the play of ${CARD} by ${SEAT} is undone`, (card, seat) => _("the play of {card} by {seat} is undone", { card, seat })],
  [`RIA: every card passes to the (left|right); ${SEAT} passes the drawn card to ${SEAT}`, (side, seat, other) => (side === "left"
    ? _("RIA: every card passes to the left; {seat} passes the drawn card to {other}", { seat, other })
    : _("RIA: every card passes to the right; {seat} passes the drawn card to {other}", { seat, other }))],
  [`KEUN: ${SEAT} takes (\\d+) weed tokens? from the (\\d+) card of ${SEAT}`, (seat, n, cost, other) => _("KEUN: {seat} takes {tokens} from the {cost} card of {other}", { seat, tokens: tokens(n), cost, other })],
  [`FLUPPE: ${SEAT} receives (\\d+) weed tokens? for (\\d+) plant cards?( \\(the pot ran short\\))?`, (seat, n, cards, short) => (short
    ? _("FLUPPE: {seat} receives {tokens} for {cards} (the pot ran short)", { seat, tokens: tokens(n), cards: plantCards(cards) })
    : _("FLUPPE: {seat} receives {tokens} for {cards}", { seat, tokens: tokens(n), cards: plantCards(cards) }))],
  [`GRIET: ${SEAT} fills the (\\d+) card with (\\d+) weed tokens?`, (seat, cost, n) => _("GRIET: {seat} fills the {cost} card with {tokens}", { seat, cost, tokens: tokens(n) })],
  [`PASTOOR: ${SEAT} takes a coin from ${SEAT}`, (seat, other) => _("PASTOOR: {seat} takes a coin from {other}", { seat, other })],
  [`BERNARD: ${SEAT} blocks ${SEAT} for the entire cultivate phase`, (seat, other) => _("BERNARD: {seat} blocks {other} for the entire cultivate phase", { seat, other })],
  [`RIA: you drew ${CARD}`, (card) => _("RIA: you drew {card}", { card })],
  ["LUCIEN: you drew a coin worth (\\d+)", (value) => _("LUCIEN: you drew a coin worth {value}", { value })],
  ["corner (\\d) held coins worth nothing", (corner) => _("corner {corner} held coins worth nothing", { corner })],
  ["corner (\\d) held coins worth (.+)", (corner, values) => _("corner {corner} held coins worth {values}", { corner, values: values.split(", ").join(_(", ")) })],
  [`DEN OLLANDER: you took ${CARD} from ${SEAT}`, (card, seat) => _("DEN OLLANDER: you took {card} from {seat}", { card, seat })],
  [`${SEAT} took your ${CARD} with DEN OLLANDER`, (seat, card) => _("{seat} took your {card} with DEN OLLANDER", { seat, card })],
  [`your ${CARD} came back to you`, (card) => _("your {card} came back to you", { card })],
  [`RIA: you received ${CARD} from ${SEAT}`, (card, seat) => _("RIA: you received {card} from {seat}", { card, seat })],
  [`PASTOOR: you took a coin worth (\\d+) from ${SEAT}`, (value, seat) => _("PASTOOR: you took a coin worth {value} from {seat}", { value, seat })],
  [`PASTOOR: ${SEAT} took your coin worth (\\d+)`, (seat, value) => _("PASTOOR: {seat} took your coin worth {value}", { seat, value })],
].map(([pattern, words]) => [new RegExp(`^${pattern}$`), words]);

/** One log line (or private note) of the game in the reader's words (seat numbers are named afterwards). */
export function logWords(line) {
  const text = String(line);
  for (const [pattern, words] of LINES) {
    const match = text.match(pattern);
    if (match) return words(...match.slice(1));
  }
  return text;
}

// Each character's text, from the rulebook (games/eigen_kweek/components.py CARD_TEXT), with its phase.
const CARD_WORDS = {
  RIA: () => _("Play after all players have chosen a character card. The stack is shuffled and you may blindly take a card; you look at it and pass it to the player on your left or right. All players pass their character card the same way."),
  KEUN: () => _("Take all weed tokens from one plant card, your own or an opponent's."),
  FLUPPE: () => _("Receive two weed tokens for each plant card on your player board."),
  GRIET: () => _("Completely fill one plant card of your choice with weed tokens."),
  PASTOOR: () => _("Take one coin of your choice from an opponent."),
  STEVEN: () => _("Add 2 weed tokens to your bid (you do not physically add them)."),
  CHANTAL: () => _("Receive 1 weed token from the bid of every other player; only after this is the bid counted. You do not add them to your own bid."),
  LUCIEN: () => _("If you bid the lowest, blindly take one coin from the coin bag. A tie, or no bid, is not the lowest bid."),
  STEFAAN: () => _("On a tie you take coins from the trading table first; the others with the same bid win nothing and keep their bid."),
  FRANK: () => _("Pay only half the price (rounded up) when sowing or ploughing over."),
  BERNARD: () => _("Block an opponent for the entire cultivate phase: they can do nothing in it."),
  JOS: () => _("At the harvest, empty all your plant cards at the same time."),
  JULITA: () => _("Block an opponent's character card and undo its effect, for everyone."),
  "DEN OLLANDER": () => _("Take an opponent's character card that has not been played yet, and use it."),
};
const CARD_PHASES = {
  RIA: "deal", KEUN: "growth", FLUPPE: "growth", GRIET: "growth", PASTOOR: "growth", STEVEN: "trade", CHANTAL: "trade",
  LUCIEN: "trade", STEFAAN: "trade", FRANK: "cultivate", BERNARD: "cultivate", JOS: "cultivate", JULITA: null, "DEN OLLANDER": null,
};

/** [card, phase, text] for every character, in the rulebook's order, in the reader's language. */
export function rulebookCards() {
  return Object.keys(CARD_WORDS).map((card) => [card, phaseName(CARD_PHASES[card]), CARD_WORDS[card]()]);
}

/** The "How to play" guide, with the numbers of this table's options. */
export function howToPlay(context) {
  const rules = (context && context.view && context.view.rules) || {};
  const costs = Object.keys(rules.capacity || { 2: 0, 4: 0, 6: 0, 8: 0 });
  const coinSet = Object.entries(rules.coins || {}).filter(([, n]) => n > 0)
    .map(([value, n]) => _("{count} worth {value}", { count: n, value }));
  const perCard = (table, noun) => formatList(costs.map((c) => {
    const n = table && table[c] !== undefined ? Number(table[c]) : "?";
    return _("{cost}-card {amount}", { cost: c, amount: noun && n !== "?" ? coins(n) : n });
  }));
  const rounds = (context && context.view && context.view.max_rounds) || 60;
  const inBag = _("35 in the bag");
  return [
    _("Goal: be the first with four potato sacks on your player board."),
    _("Coins: {coins}. Their values are secret; coins paid give no change (pay 5 for a 4 and the 1 is lost).", {
      coins: coinSet.length ? formatList(coinSet) : inBag }),
    _("Plant cards cost what they show to sow: {costs}. Each round weed tokens grow on them ({growth}) until a card is full ({capacity} tokens).", {
      costs: formatList(costs.map((c) => coins(c))), growth: perCard(rules.growth, null), capacity: perCard(rules.capacity, null) }),
    _("Plough a card over into a potato sack for {costs}; you take its weed tokens.", { costs: perCard(rules.plough_cost, "coin") }),
    _("1. Deal characters: you are dealt two character cards and keep one in secret."),
    _("2. Growth: weed tokens from the pot grow on every sown plant card."),
    _("3. Trading: bid weed tokens in a closed hand; bids open together. The highest count picks a corner first and pays its bid into the pot; equal counts take nothing and keep their tokens."),
    _("4. Sow, plough and harvest: one action each: sow, plough over, harvest one card's weed tokens, or pass."),
    _("5. Hand in characters: keep your unplayed character for next round (you are dealt none then) or hand it in."),
    ...rulebookCards().map(([card, phase, text]) => _("{card} ({phase}): {text}", { card, phase, text })),
    ngettext("The game ends when someone has four sacks, or after {n} round (most sacks win).",
      "The game ends when someone has four sacks, or after {n} rounds (most sacks win).", rounds),
  ];
}
