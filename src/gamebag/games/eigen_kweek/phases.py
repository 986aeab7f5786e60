"""The round of Eigen Kweek, phase by phase, as transitions on a ``Draft``.

A round: deal characters (chance, then everyone with new cards chooses one at
once, then the deal window), growth (plants grow, then the growth window; no
growth phase in round 1), trade (sealed bids, the trade window, the reveal,
corners chosen from the highest bid down), cultivate (the cultivate window,
then everyone not blocked by BERNARD sows, harvests, ploughs over or passes,
all at once), hand in characters (the hand-in window, then keep or hand in an
unplayed card), then four coins from the bag refill the corners. Every function
ends by moving the draft on to the next node that needs a player or chance.
Dealing and refilling, a third of all transitions, build the next state directly
instead of through a draft.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from gamebag.core.words import counted
from gamebag.games.eigen_kweek import characters as chars
from gamebag.games.eigen_kweek.actions import Move
from gamebag.games.eigen_kweek.characters import AIMED, AIMED_BY_STEP, describe_target
from gamebag.games.eigen_kweek.components import (
    CARDS,
    CORNERS,
    EMPTY,
    GROWTH,
    PLANT_COSTS,
    RESOLUTION_ORDER,
    SACK,
    SACKS_TO_WIN,
    START_TOKENS,
    TOTAL_TOKENS,
    Config,
    payment_text,
    payment_value,
)
from gamebag.games.eigen_kweek.nodes import Phase, Step
from gamebag.games.eigen_kweek.state import Draft, KweekState, Play, Trade, sacks, with_fields


def initial_state(config: Config) -> KweekState:
    """Preparation: coins in the bag, 10 weed tokens each, four coins about to go on the table."""
    n = config.players
    zero = (0,) * len(config.values)
    return KweekState(
        round_no=1,
        phase=Phase.SETUP,
        step=Step.REFILL,
        pot=config.pot_start,
        tokens=(START_TOKENS,) * n,
        bids=None,
        boards=((EMPTY,) * len(PLANT_COSTS),) * n,
        coins=(zero,) * n,
        corners=(zero,) * CORNERS,
        bag=config.coin_counts,
        bag_seen=zero,
        refill_next=0,
        refill_left=CORNERS,
        stack=tuple(sorted(CARDS)),
        dealt=((),) * n,
        held=(None,) * n,
        kept=(False,) * n,
        plays=(),
        window_step=0,
        queue=(),
        ria_card=None,
        ria_seat=None,
        chooser=None,
        rob_target=None,
        bernard_target=None,
        trade=None,
        knowledge=frozenset(),
        stack_known=frozenset(),
        notes=((),) * n,
        log=(),
        last_log=(),
        winners=(),
        ended_by=None,
    )


# ---- refill and the start of a round --------------------------------------------------------
def place_refill_coin(config: Config, state: KweekState, value: int) -> KweekState:
    """One coin from the bag onto the next corner; the fourth (or the bag's last) starts a round.

    Built straight on the state (no draft): refilling is a quarter of all transitions.
    """
    index = config.values.index(value)
    bag = list(state.bag)
    bag[index] -= 1
    corners = list(state.corners)
    row = list(corners[state.refill_next])
    row[index] += 1
    corners[state.refill_next] = tuple(row)
    # A blind draw: nobody knows any more which coins are left in the bag.
    seen = state.bag_seen if not any(state.bag_seen) else (0,) * len(config.values)
    after = with_fields(
        state, bag=tuple(bag), corners=tuple(corners), bag_seen=seen,
        refill_next=state.refill_next + 1, refill_left=state.refill_left - 1,
    )
    if after.refill_left > 0:
        return after
    d = Draft(after)
    if d.phase != Phase.SETUP:
        d.round_no += 1
    begin_round(config, d)
    return d.freeze()


def begin_round(config: Config, d: Draft) -> None:
    n = config.players
    d.last_log = d.log
    d.log = []
    d.notes = [[] for _ in range(n)]
    d.plays = []
    d.trade = None
    d.bernard_target = None
    d.phase = Phase.DEAL
    d.say(f"phase: {PHASE_TITLES[Phase.DEAL]}")
    d.stack_known = set()
    for seat in range(n):
        if d.kept[seat]:
            d.say(f"seat {seat} kept a character card and is dealt none")
    continue_deal(config, d)


def next_deal_seat(dealt: Sequence[Sequence[str]], kept: Sequence[bool]) -> int | None:
    for seat, hand in enumerate(dealt):
        if not kept[seat] and len(hand) < 2:
            return seat
    return None


def continue_deal(config: Config, d: Draft) -> None:
    dealt = d.peek("dealt")
    if d.peek("stack") and next_deal_seat(dealt, d.peek("kept")) is not None:
        d.step = Step.DEAL
    elif any(dealt):
        d.step = Step.CHOOSE
    else:
        open_window(config, d, Phase.DEAL)


def deal_card(config: Config, state: KweekState, card: str) -> KweekState:
    """One character card from the stack to the next player to be dealt (straight on the state)."""
    seat = next_deal_seat(state.dealt, state.kept)
    assert seat is not None  # the deal step exists only while someone is to be dealt
    dealt = list(state.dealt)
    dealt[seat] = (*dealt[seat], card)
    at = state.stack.index(card)
    after = with_fields(state, stack=state.stack[:at] + state.stack[at + 1 :], dealt=tuple(dealt))
    if after.stack and (len(dealt[seat]) < 2 or next_deal_seat(after.dealt, after.kept) is not None):
        return after  # more cards to deal
    d = Draft(after)
    continue_deal(config, d)
    return d.freeze()


def apply_choose(config: Config, d: Draft, moves: dict[int, Move]) -> None:
    for seat, move in moves.items():
        assert move.card is not None
        hand = d.dealt[seat]
        d.held[seat] = move.card
        for other in hand:
            if other != move.card:
                d.stack.append(other)
                d.stack_known.add((seat, other, -1))
        d.dealt[seat] = []
    d.say("everyone has chosen a character card")
    open_window(config, d, Phase.DEAL)


# ---- windows and the effects resolved when they close --------------------------------------
PHASE_TITLES = {
    Phase.DEAL: "Deal Characters",
    Phase.GROWTH: "Growth",
    Phase.TRADE: "Trade",
    Phase.CULTIVATE: "Cultivate",
    Phase.HAND_IN: "Hand In Characters",
}


def enter_phase(d: Draft, phase: Phase) -> None:
    """Move on to ``phase`` and say so in the public log (once per phase)."""
    if d.phase != phase:
        d.phase = phase
        d.say(f"phase: {PHASE_TITLES[phase]}")


def _anyone_holds(d: Draft) -> bool:
    """Whether some player still holds an unplayed character card."""
    held = d.peek("held")
    return bool(held.count(None) < len(held))


def open_window(config: Config, d: Draft, phase: Phase) -> None:
    enter_phase(d, phase)
    d.step = Step.WINDOW
    d.window_step = 1
    if not _anyone_holds(d):
        close_window(config, d)


def apply_window(config: Config, d: Draft, moves: dict[int, Move]) -> None:
    played = chars.apply_window_step(d, moves)
    if not played:
        close_window(config, d)
        return
    # "When you play this character card, you may take/fill/block...": the target is named as
    # the card is revealed, before anyone reacts, so JULITA can answer a known target.
    aimed = [
        play.card
        for play in d.peek("plays")
        if play.card in AIMED and play.target is None and not play.blocked and play.step == d.window_step
        and play.phase == d.phase
    ]
    if aimed:
        d.queue = sorted(aimed, key=RESOLUTION_ORDER.__getitem__)
    name_targets(config, d)


def name_targets(config: Config, d: Draft) -> None:
    """Ask each card just played for its target in turn (one choice: taken at once)."""
    while d.peek("queue"):
        card = d.queue.pop(0)
        seat = d.active(card)
        if seat is None:
            continue
        options = AIMED[card].targets(config, d, seat)
        if not options:
            d.say(f"seat {seat} plays {card}, which finds nothing to act on")
            continue
        if len(options) == 1:
            aim(config, d, seat, card, options[0])
            continue
        d.chooser = seat
        d.step = AIMED[card].step
        return
    if d.peek("chooser") is not None:
        d.chooser = None
    if _anyone_holds(d):
        d.window_step += 1
        d.step = Step.WINDOW
        return
    close_window(config, d)


def apply_target(config: Config, d: Draft, seat: int, action: str) -> None:
    """The card's player named its target (``keun:1:6``, ``griet:4``, ``rob:2``, ``bernard:1``)."""
    card = AIMED_BY_STEP[d.step]
    aim(config, d, seat, card, action)
    name_targets(config, d)


def aim(config: Config, d: Draft, seat: int, card: str, action: str) -> None:
    for index, play in enumerate(d.plays):
        if play.card == card and play.seat == seat and not play.blocked:
            d.plays[index] = Play(
                seat=play.seat,
                card=play.card,
                phase=play.phase,
                step=play.step,
                blocked=False,
                target=action,
                took=play.took,
            )
            d.say(f"{card} of seat {seat}: {describe_target(card, action)}")
            return


def close_window(config: Config, d: Draft) -> None:
    plays = d.peek("plays")
    if plays:
        phase = d.phase
        effects = [
            play
            for play in plays
            if play.card in chars.RESOLVED_AT_CLOSE and not play.blocked and play.phase == phase
        ]
        if effects:
            effects.sort(key=lambda play: RESOLUTION_ORDER[play.card])
            d.queue = [play.card for play in effects]
        # DEN OLLANDER's take can no longer be undone: forget which card it was.
        if any(play.took is not None and play.phase == phase for play in plays):
            d.plays = [play if play.took is None or play.phase != phase else _forget_take(play) for play in plays]
    d.window_step = 0
    resolve_queue(config, d)


def _forget_take(play: Play) -> Play:
    return Play(
        seat=play.seat,
        card=play.card,
        phase=play.phase,
        step=play.step,
        blocked=play.blocked,
        target=play.target,
        took=None,
    )


def resolve_queue(config: Config, d: Draft) -> None:
    """Resolve closed-window effects in order until one needs a player or chance."""
    while d.peek("queue"):
        card = d.queue.pop(0)
        seat = d.active(card)
        if seat is None:
            continue
        if card == "RIA":
            d.chooser = seat
            d.ria_seat = seat
            if d.stack:
                d.step = Step.RIA_CHOICE
            else:
                d.say(f"RIA: the stack is empty, so seat {seat} takes no card")
                d.ria_card = None
                d.step = Step.RIA_DIRECTION
            return
        if card == "FLUPPE":
            chars.apply_fluppe(config, d, seat)
            continue
        target = _target_of(d, card)
        if target is None:
            continue
        if AIMED[card].resolve(config, d, seat, target.split(":")):
            d.chooser = seat
            d.step = Step.ROB_DRAW
            return
    if d.peek("chooser") is not None:
        d.chooser = None
    after_window(config, d)


def _target_of(d: Draft, card: str) -> str | None:
    for play in d.plays:
        if play.card == card and not play.blocked and isinstance(play.target, str):
            return play.target
    return None


def apply_rob_draw(config: Config, d: Draft, value: int) -> None:
    seat, victim = d.chooser, d.rob_target
    assert seat is not None and victim is not None
    chars.apply_rob(config, d, seat, victim, value)
    d.rob_target = None
    resolve_queue(config, d)


def apply_ria_choice(config: Config, d: Draft, draw: bool) -> None:
    """RIA: "you may blindly take a character card" (the draw is the player's choice)."""
    seat = d.ria_seat
    assert seat is not None
    if draw:
        d.step = Step.RIA_DRAW
        return
    d.say(f"RIA: seat {seat} takes no card from the stack")
    d.ria_card = None
    d.step = Step.RIA_DIRECTION


def apply_ria_draw(config: Config, d: Draft, card: str) -> None:
    chars.ria_drawn(d, card)
    assert d.ria_seat is not None
    d.note(d.ria_seat, f"RIA: you drew {card}")
    d.say(f"RIA: seat {d.ria_seat} draws a card from the stack")
    d.step = Step.RIA_DIRECTION


def apply_ria_direction(config: Config, d: Draft, direction: int) -> None:
    chars.ria_pass(d, direction)
    resolve_queue(config, d)


def after_window(config: Config, d: Draft) -> None:
    phase = d.phase
    if phase == Phase.DEAL:
        begin_growth(config, d)
    elif phase == Phase.GROWTH:
        begin_trade(d)
    elif phase == Phase.TRADE:
        reveal_bids(config, d)
    elif phase == Phase.CULTIVATE:
        d.step = Step.CULTIVATE
    elif _anyone_holds(d):
        d.step = Step.KEEP
    else:
        end_round(config, d, {})


# ---- growth -------------------------------------------------------------------------------
def begin_growth(config: Config, d: Draft) -> None:
    if d.round_no == 1:
        # Rulebook: no plant cards lie in round 1, so the growth phase is skipped.
        begin_trade(d)
        return
    enter_phase(d, Phase.GROWTH)
    grown = 0
    short = False
    for board in d.boards:
        for index, cost in enumerate(PLANT_COSTS):
            slot = board[index]
            if slot < 0:
                continue
            wanted = min(GROWTH[cost], config.capacity[cost] - slot)
            got = d.take_from_pot(wanted)
            short = short or got < wanted
            board[index] = slot + got
            grown += got
    d.say(f"the plants grow: {counted(grown, 'weed token')} from the pot onto the plant cards"
          + (" (the pot ran dry)" if short else ""))
    open_window(config, d, Phase.GROWTH)


# ---- trade --------------------------------------------------------------------------------
def begin_trade(d: Draft) -> None:
    enter_phase(d, Phase.TRADE)
    d.step = Step.BID


def bid_actions(state: KweekState, seat: int) -> tuple[str, ...]:
    """Rulebook: a player with weed tokens must bid at least one; with none, the hand is empty."""
    return BID_MENUS[state.tokens[seat]]


# The bids open to a collection of N weed tokens, for every N (built once).
BID_MENUS: tuple[tuple[str, ...], ...] = (
    ("bid:0",),
    *(tuple(f"bid:{size}" for size in range(1, tokens + 1)) for tokens in range(1, TOTAL_TOKENS + 1)),
)


def apply_bids(config: Config, d: Draft, moves: dict[int, Move]) -> None:
    bids = [0] * config.players
    for seat, move in moves.items():
        assert move.number is not None
        bids[seat] = move.number
        d.tokens[seat] -= move.number
    d.bids = bids
    d.say("everyone holds a closed hand forward")
    open_window(config, d, Phase.TRADE)


def reveal_bids(config: Config, d: Draft) -> None:
    """Open the hands: CHANTAL, STEVEN, ties (STEFAAN), payment, LUCIEN, then corners."""
    n = config.players
    assert d.bids is not None
    bids = list(d.bids)
    hands = list(bids)
    chantal = d.active("CHANTAL")
    steven = d.active("STEVEN")
    stefaan = d.active("STEFAAN")
    lucien = d.active("LUCIEN")
    if chantal is not None:
        got = 0
        for seat in range(n):
            if seat != chantal and hands[seat] > 0:
                hands[seat] -= 1
                got += 1
        d.tokens[chantal] += got
        d.say(f"CHANTAL: seat {chantal} takes {counted(got, 'weed token')} from the other hands")
    # STEVEN adds 2 to a bid; an empty hand is no bid, and a player without tokens gets no coins.
    counts = [hands[seat] + (2 if seat == steven and bids[seat] > 0 else 0) for seat in range(n)]
    how_many = Counter(c for c in counts if c > 0)
    takers = [seat for seat in range(n) if counts[seat] > 0 and how_many[counts[seat]] == 1]
    stefaan_won = (
        stefaan is not None and counts[stefaan] > 0 and how_many[counts[stefaan]] > 1
    )
    if stefaan is not None and stefaan_won:
        takers.append(stefaan)
        d.say(f"STEFAAN: seat {stefaan} wins the tie at {counts[stefaan]}")
    order = sorted(takers, key=lambda seat: (-counts[seat], seat))
    if stefaan_won and config.stefaan_first and stefaan is not None:
        order.remove(stefaan)
        order.insert(0, stefaan)
    for seat in range(n):
        if seat in order:
            d.pot += hands[seat]
        else:
            d.tokens[seat] += hands[seat]
    d.bids = None
    shown = ", ".join(f"seat {s} bid {bids[s]}" + (f" (counts {counts[s]})" if counts[s] != bids[s] else "")
                      for s in range(n))
    d.say(f"all players open their hands: {shown}")
    tied = sorted({counts[s] for s in range(n) if counts[s] > 0 and s not in order})
    for count in tied:
        seats = " and ".join(f"seat {s}" for s in range(n) if counts[s] == count and s not in order)
        d.say(f"{seats} bid the same ({count}): no corner, and the bid goes back to the collection")
    if order:
        d.say("the order of choosing corners: " + ", ".join(f"seat {s}" for s in order))
    lucky = None
    # A bidder is a player who put weed tokens in the hand; an empty hand "cannot bid anything".
    # Bids compare as counted, after CHANTAL ("only after this is the bid counted"), so a hand
    # CHANTAL emptied is a bid of 0, the lowest.
    other_bids = [counts[other] for other in range(n) if other != lucien and bids[other] > 0]
    if lucien is not None and bids[lucien] > 0 and other_bids and counts[lucien] < min(other_bids):
        lucky = lucien
    d.trade = Trade(
        bids=tuple(bids),
        hands=tuple(hands),
        counts=tuple(counts),
        order=tuple(order),
        chosen=(),
        lucien=lucky,
    )
    if lucky is not None:
        if sum(d.bag):
            d.chooser = lucky
            d.step = Step.LUCIEN_DRAW
            return
        d.say("LUCIEN: the coin bag is empty")
    next_corner(config, d)


def apply_lucien_draw(config: Config, d: Draft, value: int) -> None:
    seat = d.chooser
    assert seat is not None
    index = config.values.index(value)
    d.bag[index] -= 1
    d.coins[seat][index] += 1
    d.bag_seen = [0] * len(config.values)
    d.say(f"LUCIEN: seat {seat} bid the lowest and draws a coin from the bag")
    d.note(seat, f"LUCIEN: you drew a coin worth {value}")
    if d.peek("chooser") is not None:
        d.chooser = None
    next_corner(config, d)


def corner_actions(state: KweekState | Draft) -> list[str]:
    assert state.trade is not None
    return [f"corner:{c + 1}" for c in range(CORNERS) if c not in state.trade.chosen]


def next_corner(config: Config, d: Draft) -> None:
    trade = d.trade
    assert trade is not None
    if len(trade.chosen) < len(trade.order):
        d.chooser = trade.order[len(trade.chosen)]
        options = corner_actions(d)
        if len(options) == 1:
            take_corner(config, d, int(options[0].split(":")[1]) - 1)
            return
        d.step = Step.CORNER
        return
    if d.peek("chooser") is not None:
        d.chooser = None
    open_window(config, d, Phase.CULTIVATE)


def take_corner(config: Config, d: Draft, corner: int) -> None:
    trade = d.trade
    seat = d.chooser
    assert trade is not None and seat is not None
    coins = d.corners[corner]
    for index, count in enumerate(coins):
        d.coins[seat][index] += count
    got = [v for v, count in zip(config.values, coins, strict=True) for _ in range(count)]
    d.corners[corner] = [0] * len(config.values)
    d.trade = Trade(
        bids=trade.bids,
        hands=trade.hands,
        counts=trade.counts,
        order=trade.order,
        chosen=(*trade.chosen, corner),
        lucien=trade.lucien,
    )
    d.say(f"seat {seat} takes the {counted(len(got), 'coin')} of corner {corner + 1} and hands in its bid")
    d.note(seat, f"corner {corner + 1} held coins worth {', '.join(map(str, got)) or 'nothing'}")
    next_corner(config, d)


# ---- cultivate ----------------------------------------------------------------------------
def apply_cultivate(config: Config, d: Draft, moves: dict[int, Move]) -> None:
    for seat in sorted(moves):
        move = moves[seat]
        board = d.boards[seat]
        if move.kind == "pass":
            d.say(f"seat {seat} does nothing")
            continue
        if move.kind == "harvest_all":
            total = sum(slot for slot in board if slot > 0)
            for index, slot in enumerate(board):
                if slot > 0:
                    board[index] = 0
            d.tokens[seat] += total
            d.say(f"JOS: seat {seat} harvests all plant cards: {counted(total, 'weed token')}")
            continue
        assert move.cost is not None
        index = PLANT_COSTS.index(move.cost)
        if move.kind == "harvest":
            d.tokens[seat] += board[index]
            d.say(f"seat {seat} harvests {counted(board[index], 'weed token')} from the {move.cost} card")
            board[index] = 0
            continue
        assert move.payment is not None
        for value_index, count in enumerate(move.payment):
            d.coins[seat][value_index] -= count
            d.bag[value_index] += count
            d.bag_seen[value_index] += count
        paid = payment_text(move.payment, config.values)
        value = payment_value(move.payment, config.values)
        if move.kind == "sow":
            board[index] = 0
            d.say(f"seat {seat} sows the {move.cost} card, paying {paid} ({value})")
        else:
            d.tokens[seat] += board[index]
            d.say(
                f"seat {seat} ploughs over the {move.cost} card, paying {paid} ({value}), and takes "
                f"its {counted(board[index], 'weed token')}: a potato sack"
            )
            board[index] = SACK
    finished = [seat for seat in range(config.players) if sacks(d.boards[seat]) >= SACKS_TO_WIN]
    if finished:
        d.winners = tuple(finished)
        d.ended_by = "four_sacks"
        d.phase = Phase.OVER
        d.step = Step.OVER
        verb = "wins" if len(finished) == 1 else "win"
        d.say("four potato sacks: " + ", ".join(f"seat {s}" for s in finished) + f" {verb}")
        return
    begin_hand_in(config, d)


# ---- hand in characters, refill, end of round --------------------------------------------
def begin_hand_in(config: Config, d: Draft) -> None:
    """Hand In Characters is a phase too: JULITA and DEN OLLANDER may be played in its window."""
    d.bernard_target = None
    open_window(config, d, Phase.HAND_IN)


def apply_keep(config: Config, d: Draft, moves: dict[int, Move]) -> None:
    end_round(config, d, {seat: move.kind == "keep" for seat, move in moves.items()})


def end_round(config: Config, d: Draft, keeps: dict[int, bool]) -> None:
    n = config.players
    kept = [False] * n
    for seat in range(n):
        if d.held[seat] is not None and keeps.get(seat, False):
            kept[seat] = True
            d.say(f"seat {seat} keeps an unplayed character card")
        else:
            d.held[seat] = None
    d.kept = kept
    d.stack = [card for card in CARDS if card not in d.held]
    d.knowledge = {k for k in d.knowledge if d.held[k[1]] == k[2]}
    d.stack_known = set()
    d.plays = []
    if d.round_no >= config.max_rounds:
        d.winners = cap_winners(config, d)
        d.ended_by = "round_cap"
        d.phase = Phase.OVER
        d.step = Step.OVER
        d.say(f"round cap of {config.max_rounds} reached: the most potato sacks win")
        return
    d.phase = Phase.HAND_IN
    d.refill_next = 0
    d.refill_left = min(CORNERS, sum(d.bag))
    if d.refill_left == 0:
        d.say("the coin bag is empty: no coins go on the trading table")
        d.round_no += 1
        begin_round(config, d)
        return
    if d.refill_left < CORNERS:
        d.say(f"the coin bag holds only {counted(d.refill_left, 'coin')}: only those go on the table")
    else:
        d.say("four coins are taken from the coin bag and placed on corners 1 to 4 of the trading table")
    d.step = Step.REFILL


def cap_key(config: Config, d: Draft | KweekState, seat: int) -> tuple[int, int, int, int]:
    """Tie-break at the round cap: sacks, then plant cards laid, coin value, weed tokens."""
    board = d.boards[seat]
    laid = sum(1 for slot in board if slot != EMPTY)
    value = payment_value(tuple(d.coins[seat]), config.values)
    tokens = d.tokens[seat] + sum(slot for slot in board if slot > 0)
    return (sacks(board), laid, value, tokens)


def cap_winners(config: Config, d: Draft) -> tuple[int, ...]:
    keys = [cap_key(config, d, seat) for seat in range(config.players)]
    best = max(keys)
    return tuple(seat for seat, key in enumerate(keys) if key == best)

