// The table of Eigen Kweek: the trading table with its four corners, the pot and the coin bag,
// every player board with its plant cards growing weed, the face-down character cards and closed
// hands (shown as hidden, never their content), your own hand, coins and character, and the bids
// revealed together.
import { h, pluralWords, sameJson, seatName } from "../js/common.js";
import { catalogue, formatList } from "../js/i18n.js";
import { characterArt, plantArt } from "./eigen-kweek-art.js";
import { actionLabel, coins as coinCount, howToPlay, logWords, paymentGroups, paymentWords, phaseWords, tokens } from "./eigen-kweek-words.js";

const { _, ngettext } = catalogue("eigen_kweek");

export { actionLabel, phaseWords };

const GROUP_TITLES = {
  choose: () => _("Choose your character"), play: () => _("Play a character"), block: () => _("Block a character"),
  pass: () => _("Pass"), bid: () => _("Bid weed tokens (secret)"), corner: () => _("Take a corner of the trading table"),
  sow: () => _("Sow a plant card"), plough: () => _("Plough a plant card over"), harvest: () => _("Harvest"),
  harvest_all: () => _("Harvest"), keep: () => _("Your character card"), hand_in: () => _("Your character card"),
  take: () => _("DEN OLLANDER: take a card"), ria: () => "RIA", keun: () => _("KEUN: take the weed of a plant card"),
  griet: () => _("GRIET: fill a plant card"), rob: () => _("PASTOOR: take a coin"), bernard: () => _("BERNARD: block a player"),
};
const groupTitle = (kind) => (GROUP_TITLES[kind] ? GROUP_TITLES[kind]() : _("Your move"));
const ENDED_BY = {
  four_sacks: () => _("The game ended because a player has four potato sacks."),
  round_cap: () => _("The game ended because the round limit was reached (most potato sacks win)."),
};
const SEAT_KINDS = new Set(["take", "rob", "bernard", "keun"]);

function names(context) {
  return context.table.seats.map((s) => s.name);
}

// What each character does, shortened from the rulebook (phase in which it is played: effect).
const CHARACTERS = {
  RIA: () => _("deal: draw a card from the stack and send it left or right; everyone passes their card that way"),
  KEUN: () => _("growth: take all weed tokens from one plant card (yours or another's)"),
  FLUPPE: () => _("growth: get 2 weed tokens for each plant card on your board"),
  GRIET: () => _("growth: fill one plant card of your choice with weed tokens"),
  PASTOOR: () => _("growth: take one coin of your choice from an opponent"),
  STEVEN: () => _("trade: add 2 to your bid without paying them"),
  CHANTAL: () => _("trade: take 1 weed token from every other player's bid"),
  LUCIEN: () => _("trade: if your bid is the lowest, draw a coin blindly from the bag"),
  STEFAAN: () => _("trade: on a tied bid, you take your corner first"),
  FRANK: () => _("cultivate: pay half to sow or plough over"),
  BERNARD: () => _("cultivate: block one opponent for the whole cultivate phase"),
  JOS: () => _("cultivate: harvest all your plant cards at once"),
  JULITA: () => _("any phase: block an opponent's character card and undo its effect"),
  "DEN OLLANDER": () => _("any phase: take an opponent's unplayed character card and use it"),
};

export function characterWords(card) {
  return CHARACTERS[card] ? _("{card} ({text})", { card, text: CHARACTERS[card]() }) : String(card);
}

const STEP_HINTS = {
  choose: () => _("Keep one of the two characters dealt to you; the other goes back. Nobody sees which you keep until it is played."),
  window: () => _("You may play your character now if its moment has come, or pass. Playing reveals it to everyone."),
  bid: () => _("Secret bid of weed tokens from your hand, revealed together and paid. Highest bid picks a corner first; equal bids take nothing."),
  corner: () => _("Take one corner's coins; corners go in bid order."),
  cultivate: () => _("Spend coins to sow a plant card, or plough a full one over into a potato sack, or harvest weed tokens into your hand."),
  keep: () => _("Keep your character for the next round (you will not be dealt new ones) or hand it in."),
  ria_direction: () => _("Pass the cards to the left or to the right: everyone passes their character that way."),
};

/** A line of the game's log in words: seat numbers as names, plural forms spelled out. */
function withNames(text, seatNames) {
  // logWords lists seats as the reader's language lists them; each "seat N" then gets its name.
  const named = logWords(text).replace(/\bseat (\d+)/g, (whole, seat) => seatNames[Number(seat)] || whole);
  return pluralWords(named);
}

function plantCard(card, view) {
  const capacity = view.rules && view.rules.capacity ? Number(view.rules.capacity[String(card.cost)]) : null;
  const tokens = card.tokens || 0;
  const plough = view.rules && view.rules.plough_cost ? view.rules.plough_cost[String(card.cost)] : null;
  let state;
  let words;
  if (card.status === "sack") {
    state = "sack";
    words = _("potato sack");
  } else if (card.status === "empty") {
    state = "unsown";
    words = _("not sown: sow for {cost}", { cost: card.cost });
  } else if (capacity && tokens >= capacity) {
    state = "full";
    words = plough !== null ? _("full: {tokens} weed, plough for {plough}", { tokens, plough }) : _("full: {tokens} weed", { tokens });
  } else {
    state = "growing";
    words = capacity ? _("growing: {tokens} of {capacity} weed", { tokens, capacity }) : _("{tokens} weed", { tokens });
  }
  return h(
    "div",
    { class: `card plant ${state}`, "data-cost": card.cost, "data-state": state, title: _("{cost}-coin plant card: {state}", { cost: card.cost, state: words }),
      style: { opacity: state === "unsown" ? 0.7 : 1, borderStyle: state === "unsown" ? "dashed" : "solid" } },
    h("div", {}, h("strong", {}, `${card.cost}`), h("span", { class: "small" }, _("-card"))),
    plantArt(card.cost, card.status, tokens, capacity),
    h("div", { class: "small" }, words),
  );
}

function sacks(count) {
  const items = [];
  for (let i = 0; i < 4; i += 1) {
    items.push(h("span", { class: "sack", title: _("potato sack"), style: { display: "inline-block", width: "16px", height: "20px", borderRadius: "6px 6px 8px 8px", background: i < count ? "#c49a5a" : "rgba(255,255,255,0.15)", border: "1px solid rgba(0,0,0,0.35)" } }));
  }
  return h("span", { class: "row", style: { gap: "3px" } }, items, h("span", { class: "small" }, _("{count} of 4 sacks", { count })));
}

/** Coins and their worth: "no coins", "1 coin worth 3", "3 coins: 5 + 2 + 1 = 8". */
function coinList(coins, value) {
  if (!coins.length) return _("no coins");
  return coins.length === 1 ? _("1 coin worth {value}", { value: coins[0] })
    : _("{coins}: {values} = {value}", { coins: coinCount(coins.length), values: coins.join(" + "), value });
}

/** A board's coins: their values on your own board (you know them), after the game everyone's, else only how many. */
function coinWords(context, entry) {
  const finalViews = context.result && context.result.final_views;
  const final = finalViews && finalViews[entry.seat] && finalViews[entry.seat].you;
  const you = final || (entry.seat === context.seat ? context.view.you : null);
  if (you && Array.isArray(you.coins)) {
    return coinList(you.coins, you.coin_value);
  }
  return entry.coins ? _("{coins} (values hidden)", { coins: coinCount(entry.coins) }) : _("no coins");
}

function playerBoard(context, entry) {
  const { view, table, seat } = context;
  const p = entry.seat;
  const choices = view.choices || { waiting_for: [], chosen: [] };
  const badges = [];
  if (p === seat) badges.push(h("span", { class: "badge" }, _("you")));
  if (table.seats[p].bot) badges.push(h("span", { class: "badge" }, _("bot")));
  if (choices.chosen.includes(p)) badges.push(h("span", { class: "badge chosen" }, _("has chosen ✓")));
  else if (choices.waiting_for.includes(p)) badges.push(h("span", { class: "badge waiting" }, _("choosing…")));
  if (view.over && view.winners.includes(p)) badges.push(h("span", { class: "badge chosen" }, _("winner")));
  const hidden = [];
  const finalViews = context.result && context.result.final_views;
  // Everyone's card once the game is over; before that only your own (your view knows it), face up to you.
  const own = p === seat && view.you ? view.you.card : null;
  const revealedCard = finalViews && finalViews[p] && finalViews[p].you ? finalViews[p].you.card : own;
  if (revealedCard) hidden.push(h("span", { class: "badge revealed-card", title: characterWords(revealedCard) }, characterArt(revealedCard, 20), " ", revealedCard));
  else if (entry.has_card) hidden.push(h("span", { class: "hidden-card", title: _("a face-down character card") }, "?"));
  if (entry.hand_sealed) hidden.push(h("span", { class: "badge", title: _("a closed hand held forward") }, _("closed hand")));
  return h(
    "div",
    { class: `player${p === seat ? " me" : ""}`, id: `player-${p}` },
    h("div", { class: "name" }, seatName(table, p), badges),
    sacks(entry.sacks),
    h("div", { class: "small", style: { margin: "0.3em 0" } }, coinWords(context, entry), hidden.length ? " · " : "", hidden),
    h("div", { class: "plant-grid" }, (entry.board || []).map((card) => plantCard(card, view))),
  );
}

/**
 * The bids as they count, each with why it differs from the hand shown: CHANTAL's take (one token
 * from every other hand) and STEVEN's +2; then who chooses first and who tied (and so takes nothing).
 */
function bidsAsCounted(view, context) {
  const trade = view.trade;
  if (!trade || !trade.bids || !trade.bids.some((b) => b !== null)) return null;
  const seatNames = names(context);
  const counts = trade.counts || trade.bids;
  const hands = trade.hands || trade.bids;
  const played = (card) => (view.plays || []).find((p) => p.card === card && !p.blocked);
  const chantal = played("CHANTAL");
  const steven = played("STEVEN");
  const order = trade.order || [];
  const rows = trade.bids.map((bid, p) => {
    const why = [];
    if (bid !== null && hands[p] < bid) {
      why.push(chantal ? _("{player}'s CHANTAL took {n}", { player: seatNames[chantal.seat], n: bid - hands[p] })
        : _("CHANTAL took {n}", { n: bid - hands[p] }));
    }
    if (bid !== null && counts[p] > hands[p]) why.push(_("STEVEN +{n}", { n: counts[p] - hands[p] }));
    if (chantal && chantal.seat === p) why.push(_("played CHANTAL: the tokens taken go to the collection, not the bid"));
    let outcome = "";
    const ordinals = [() => _("chooses a corner first"), () => _("chooses a corner second"), () => _("chooses a corner third"), () => _("chooses a corner fourth")];
    const next = () => _("chooses a corner next");
    const tied = _("tied: no corner, the bid goes back");
    const none = _("no bid, no corner");
    if (order.includes(p)) outcome = ` → ${(ordinals[order.indexOf(p)] || next)()}`;
    else if (counts[p] > 0) outcome = ` → ${tied}`;
    else if (bid !== null) outcome = ` → ${none}`;
    const shown = bid === null ? "—" : counts[p] !== bid ? _("bid {bid}, counts {count}", { bid, count: counts[p] }) : _("bid {bid}", { bid });
    return h("li", { "data-bid": p, class: context.animate ? "reveal" : "", style: { animationDelay: `${0.15 * p}s` } },
      h("strong", {}, seatNames[p]), `: ${shown}`, why.length ? ` (${why.join("; ")})` : "", outcome);
  });
  const notes = [];
  if (steven) notes.push(_("STEVEN adds 2 to a bid without paying them."));
  if (chantal) notes.push(_("CHANTAL takes 1 from every other hand before the bids count."));
  return h("div", { class: "small", id: "bids", style: { marginTop: "0.4em" } },
    _("Bids as they count (highest chooses a corner first; equal counts take nothing):"),
    h("ul", { class: "bid-list", style: { margin: "0.2em 0", paddingLeft: "1.2em" } }, rows),
    notes.length ? h("div", {}, notes.join(" ")) : null);
}

function tradingTable(view, context) {
  const corners = (view.corners || []).map((count, i) =>
    h("div", { class: "card", "data-corner": i + 1, style: { textAlign: "center", minWidth: "70px" } }, h("div", { class: "small" }, _("corner {corner}", { corner: i + 1 })), h("strong", {}, coinCount(count))),
  );
  const bids = bidsAsCounted(view, context);
  return h(
    "div",
    { id: "trading-table", class: "grow" },
    h("div", { class: "caption" }, _("Trading table")),
    h("div", { style: { display: "grid", gridTemplateColumns: "repeat(2, max-content)", gap: "6px" } }, corners),
    bids,
  );
}

function supplies(view) {
  const stackCards = ngettext("{n} card", "{n} cards", view.stack || 0);
  const played = (play) => (play.blocked ? _("{card} (blocked)", { card: play.card }) : play.card);
  return h(
    "div",
    {},
    h("div", { class: "caption" }, _("Supplies")),
    h("div", { class: "small" }, _("Pot: {tokens}", { tokens: tokens(view.pot) })),
    h("div", { class: "small" }, _("Coin bag: {coins}", { coins: coinCount(view.bag ? view.bag.coins : 0) })),
    h("div", { class: "small" }, _("Character stack: {cards}", { cards: stackCards })),
    (view.plays || []).length
      ? h("div", { class: "small", style: { marginTop: "0.4em" } }, _("Played: "), (view.plays || []).map((play) => h("span", { class: "badge played-card", style: { marginRight: "3px" } }, characterArt(play.card, 20), ` ${played(play)}`)))
      : null,
  );
}

function privateArea(view, seatNames) {
  const you = view.you;
  if (!you) return null;
  const coins = you.coins || [];
  return h(
    "div",
    { class: "panel", id: "my-hand", style: { background: "rgba(255,255,255,0.92)", color: "#23211d", marginTop: "0.7em" } },
    h("div", { class: "caption" }, _("Only you see this")),
    h(
      "dl",
      { class: "kv" },
      h("dt", {}, _("Weed tokens in your hand")), h("dd", {}, String(you.tokens)),
      h("dt", {}, _("Your coins")), h("dd", {}, coinList(coins, you.coin_value)),
      h("dt", {}, _("Your character")), h("dd", {}, you.card || _("none")),
      you.dealt && you.dealt.length ? [h("dt", {}, _("Dealt to you")), h("dd", {}, formatList(you.dealt))] : null,
      you.sealed_bid !== null && you.sealed_bid !== undefined ? [h("dt", {}, _("Your sealed bid")), h("dd", {}, String(you.sealed_bid))] : null,
      you.notes && you.notes.length ? [h("dt", {}, _("Notes")), h("dd", {}, you.notes.map((n) => withNames(n, seatNames)).join("; "))] : null,
    ),
  );
}

/**
 * One button per plant card to sow or plough over, with its price and the coins paid: the
 * cheapest set (there is no change), and under "choose other coins" the other sets that pay it.
 * The engine has one action per payment; the server checks whichever is sent.
 */
function paymentButtons(context, actions) {
  const { act, view } = context;
  return paymentGroups(view, actions).map((group) => {
    const [best, ...others] = group.options;
    const price = coinCount(group.price);
    const verb = group.kind === "sow" ? _("Sow the {cost}-card: {price}", { cost: group.cost, price })
      : _("Plough the {cost}-card into a sack: {price}", { cost: group.cost, price });
    const main = h("button", { class: "primary pay", "data-action": JSON.stringify(best.action), "data-price": group.price, onclick: () => act(best.action) },
      h("strong", {}, verb), h("br", {}), h("span", { class: "small" }, paymentWords(best, group.price)));
    if (!others.length) return h("div", { class: "pay-group" }, main);
    return h("div", { class: "pay-group" }, main, h("details", { class: "other-coins" },
      h("summary", {}, _("choose other coins")),
      h("div", { class: "choices" }, others.map((option) => h("button", { "data-action": JSON.stringify(option.action), onclick: () => act(option.action) }, paymentWords(option, group.price))))));
  });
}

function controlsFor(context) {
  const { legal, act, controls } = context;
  const seatNames = names(context);
  const groups = new Map();
  for (const action of legal) {
    const kind = typeof action === "string" ? action.split(":")[0] : "other";
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push(action);
  }
  for (const [kind, actions] of groups) {
    controls.appendChild(h("h3", {}, groupTitle(kind)));
    if (kind === "sow" || kind === "plough") {
      controls.appendChild(h("div", { class: "choices pay-choices" }, paymentButtons(context, actions)));
      if (kind === "sow" || !groups.has("sow")) controls.appendChild(h("p", { class: "small" }, _("Coins give no change: what you pay above the price goes back into the bag.")));
      continue;
    }
    // Many choices go in a list; bids stay buttons up to 30.
    if (actions.length > (kind === "bid" ? 30 : 12)) {
      const mine = context.view.choices ? context.view.choices.mine : null;
      const select = h(
        "select",
        { "data-kind": kind, "aria-label": groupTitle(kind) },
        actions.map((a) => h("option", { value: a, selected: a === mine }, actionLabel(a, seatNames, context.view))),
      );
      // The Confirm button carries the action picked in the list, so it is marked once chosen.
      const confirm = h("button", { class: "primary", "data-action": JSON.stringify(select.value), onclick: () => act(select.value) }, _("Confirm"));
      select.addEventListener("change", () => {
        confirm.dataset.action = JSON.stringify(select.value);
      });
      controls.appendChild(h("div", { class: "choices" }, select, confirm));
      continue;
    }
    controls.appendChild(
      h("div", { class: "choices" }, actions.map((a) => {
        const card = kind === "choose" || kind === "play" || kind === "block" ? a.split(":")[1] : null;
        return h("button", {
          "data-action": JSON.stringify(a), class: kind === "pass" ? "" : "primary", onclick: () => act(a),
          title: card ? characterWords(card) : null,
        }, card ? characterArt(card, 28) : null, card ? " " : null, actionLabel(a, seatNames, context.view));
      })),
    );
  }
}

function render(context) {
  const { view, board, legal } = context;
  const chooser = view.chooser === null || view.chooser === undefined ? null : names(context)[view.chooser];
  board.appendChild(
    h(
      "div",
      { class: "info-line" },
      h("strong", {}, _("Round {round}", { round: view.round })),
      h("span", { id: "phase" }, phaseWords(view)),
      chooser ? h("span", {}, _("{player} chooses", { player: chooser })) : null,
      view.over && ENDED_BY[view.ended_by] ? h("span", {}, ENDED_BY[view.ended_by]()) : null,
    ),
  );
  board.appendChild(h("div", { class: "centre" }, tradingTable(view, context), supplies(view)));
  const grid = h("div", { class: "player-grid" });
  for (const entry of view.table || []) grid.appendChild(playerBoard(context, entry));
  board.appendChild(grid);
  if (context.result || context.seat === null) {
    const mine = privateArea(view, names(context));
    if (mine) board.appendChild(mine);
  }
  if (legal.length) controlsFor(context);
}

function describe(previous, next, context) {
  const seatNames = names(context);
  const before = previous.log || [];
  const after = next.log || [];
  let fresh;
  // A coin laid on a corner (corner 4 too, laid as the next round begins) is told before the round's news.
  const refill = cornerLines(previous, next);
  if (previous.round === next.round && sameJson(after.slice(0, before.length), before)) {
    fresh = after.slice(before.length);
  } else {
    const finished = next.last_round_log || [];
    fresh = [...finished.slice(previous.round + 1 === next.round ? before.length : 0), ...refill];
    if (previous.round !== next.round) fresh.push({ kind: "round", text: _("Round {round} begins.", { round: next.round }) });
    fresh.push(...after);
  }
  const lines = fresh.map((line) => (typeof line === "string" ? withNames(line, seatNames) : line));
  if (!fresh.length) lines.push(...unlogged(previous, next, context));
  else if (previous.round === next.round) lines.unshift(...refill);
  if (next.over && !previous.over) {
    const winners = (next.winners || []).map((p) => seatNames[p]);
    const text = winners.length > 1 ? _("Game over: {players} share the win.", { players: formatList(winners) })
      : _("Game over: {player} wins.", { player: winners.join("") });
    lines.push({ kind: "big", text });
  }
  return lines;
}

/** A coin from the bag laid face down on a corner, one line per corner that got coins. */
function cornerLines(previous, next) {
  const lines = [];
  (next.corners || []).forEach((count, i) => {
    const added = count - ((previous.corners || [])[i] || 0);
    if (added > 0) {
      lines.push(ngettext("{n} coin from the bag goes face down on corner {corner}.",
        "{n} coins from the bag go face down on corner {corner}.", added, { corner: i + 1 }));
    }
  });
  return lines;
}

/** The card dealt to you between two views (the one more in your dealt cards). */
function newCard(before, after) {
  const left = [...((before && before.dealt) || [])];
  for (const card of after.dealt || []) {
    const at = left.indexOf(card);
    if (at < 0) return card;
    left.splice(at, 1);
  }
  return null;
}

/**
 * The events the game's own log leaves unsaid, from what changed in the view: a coin laid face
 * down on a corner, a character card dealt (its name only to you), a character window passed.
 */
function unlogged(previous, next, context) {
  const seatNames = names(context);
  const lines = cornerLines(previous, next);
  (next.table || []).forEach((entry, i) => {
    const before = (previous.table || [])[i] || {};
    if ((entry.dealt || 0) > (before.dealt || 0)) {
      const mine = entry.seat === context.seat && next.you ? newCard(previous.you, next.you) : null;
      lines.push(mine ? _("You are dealt {card}.", { card: characterWords(mine) })
        : _("{player} is dealt a character card, face down.", { player: seatNames[entry.seat] }));
    }
  });
  if (!lines.length && next.stack < previous.stack) {
    lines.push(ngettext("A character card is dealt from the stack ({n} card left).",
      "A character card is dealt from the stack ({n} cards left).", next.stack));
  }
  if (!lines.length && (previous.step !== next.step || previous.window_step !== next.window_step || previous.phase !== next.phase)) {
    const passed = previous.step === "window" && sameJson(previous.plays, next.plays);
    lines.push(passed ? _("No character is played. Now: {phase}.", { phase: phaseWords(next) })
      : _("Now: {phase}.", { phase: phaseWords(next) }));
  }
  return lines;
}

function label(action, view) {
  if (typeof action === "string" && action.startsWith("bid:")) return _("a bid of {bid}", { bid: action.slice(4) });
  return actionLabel(action, null, view);
}

function hint(context) {
  const { view, legal } = context;
  const kinds = new Set(legal.map((a) => (typeof a === "string" ? a.split(":")[0] : "")));
  if (kinds.has("choose") && view.you && view.you.dealt) {
    return _("Keep one in secret, the other goes back. {cards}.", { cards: view.you.dealt.map(characterWords).join("; ") });
  }
  if (kinds.has("play")) {
    const card = legal.find((a) => typeof a === "string" && a.startsWith("play:")).split(":")[1];
    return _("Play now or pass (playing shows the card to all): {card}.", { card: characterWords(card) });
  }
  if (kinds.has("block")) return _("With JULITA you may block a character card just played (its effect is undone), or pass.");
  return STEP_HINTS[view.step] ? STEP_HINTS[view.step]() : _("{phase}: choose one of the actions below.", { phase: phaseWords(view) });
}

function privateInfo(context) {
  const you = context.view.you;
  if (!you) return null;
  const coins = you.coins || [];
  return h(
    "dl",
    { class: "kv", id: "my-hand" },
    h("dt", {}, _("Weed tokens in hand")), h("dd", {}, String(you.tokens)),
    h("dt", {}, _("Your coins")), h("dd", {}, coinList(coins, you.coin_value)),
    h("dt", {}, _("Your character")), h("dd", {}, you.card ? [characterArt(you.card, 32), " ", characterWords(you.card)] : _("none")),
    you.sealed_bid !== null && you.sealed_bid !== undefined ? [h("dt", {}, _("Your sealed bid")), h("dd", {}, String(you.sealed_bid))] : null,
    you.notes && you.notes.length
      ? [h("dt", {}, _("You know")), h("dd", {}, you.notes.map((n) => withNames(n, names(context))).join("; "))]
      : null,
  );
}

function explainEnd(context, result) {
  const { view, names } = context;
  const winners = result.winners.map((p) => names[p]);
  const sacks = (view.table || []).map((entry) => entry.sacks);
  if (!winners.length) return _("Nobody won.");
  const counted = names.map((n, p) => _("{player} {sacks}", { player: n, sacks: sacks[p] })).join(", ");
  const players = formatList(winners);
  if (view.ended_by === "round_cap") {
    const params = { players, rounds: view.max_rounds || "?", sacks: counted };
    return winners.length > 1
      ? _("{players} share the win: the round limit of {rounds} rounds, an option of this table, was reached before anyone had four sacks, and the most potato sacks win (sacks: {sacks}).", params)
      : _("{players} wins: the round limit of {rounds} rounds, an option of this table, was reached before anyone had four sacks, and the most potato sacks win (sacks: {sacks}).", params);
  }
  return winners.length > 1 ? _("{players} share the win: they have four potato sacks (sacks: {sacks}).", { players, sacks: counted })
    : _("{players} wins: has four potato sacks (sacks: {sacks}).", { players, sacks: counted });
}

function revealEnd(context, finalViews) {
  const names = context.names;
  return h(
    "ul",
    { class: "revealed-list" },
    finalViews.map((view, p) => {
      const you = view.you || {};
      const coins = you.coins || [];
      return h(
        "li",
        { "data-revealed": p },
        h("strong", {}, names[p]), ": ",
        _("character {card}; coins {coins}; {tokens} in hand.", {
          card: you.card ? characterWords(you.card) : _("none"), coins: coinList(coins, you.coin_value), tokens: tokens(you.tokens ?? 0) }),
      );
    }),
  );
}

export default {
  render, describe, label, howToPlay, hint, privateInfo, explainEnd, revealEnd,
  // The decisions here ask about the whole table: on a phone the move panel follows the
  // board in the page instead of lying over it.
  panelInFlow: true,
  rulebookWin: () => _("The rounds are repeated in this way until there is a player who has four potato sacks lying on their player board. That player has won!"),
};
