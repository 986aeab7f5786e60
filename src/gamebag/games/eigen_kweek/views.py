"""What each player may know: observations, the spectator's view, the tensor, resampling.

Hidden (rulings.md, Eigen Kweek 1-2): the weed tokens in a collection and in a
sealed hand; which character card a player chose, was dealt, kept, drew with
RIA or took with DEN OLLANDER (until it is played); the values of coins on the
trading table and in the bag, and (default ``coin_visibility: secret``) in
other players' collections. Public: the pot, every plant card and its tokens,
how many coins lie where, played cards, revealed bids, every action taken in
the open (payments included) and coins everyone saw paid into the bag since it
was last drawn from.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamebag.core.protocol import JsonDict
from gamebag.core.rng import Rng
from gamebag.games.eigen_kweek.characters import WITH_RIA
from gamebag.games.eigen_kweek.components import (
    CARDS,
    COIN_VALUES,
    CORNERS,
    EMPTY,
    GROWTH,
    PLANT_COSTS,
    SACK,
    TOTAL_COINS,
    TOTAL_TOKENS,
    Config,
)
from gamebag.games.eigen_kweek.nodes import Phase, Step
from gamebag.games.eigen_kweek.state import Draft, KweekState, Play, sacks

if TYPE_CHECKING:
    from gamebag.games.eigen_kweek.game import EigenKweek

PHASES = tuple(Phase)
STEPS = tuple(Step)
MAX_SEATS = 4


def _coins_list(counts: tuple[int, ...], values: tuple[int, ...]) -> list[int]:
    return [v for v, n in zip(values, counts, strict=True) for _ in range(n)]


def _board_json(board: tuple[int, ...]) -> list[JsonDict]:
    out = []
    for cost, slot in zip(PLANT_COSTS, board, strict=True):
        status = "empty" if slot == EMPTY else "sack" if slot == SACK else "growing"
        out.append({"cost": cost, "status": status, "tokens": max(slot, 0)})
    return out


def _play_json(play: Play) -> JsonDict:
    return {
        "seat": play.seat,
        "card": play.card,
        "phase": play.phase,
        "step": play.step,
        "blocked": play.blocked,
        "target": play.target,
    }


def public_view(game: EigenKweek, state: KweekState) -> JsonDict:
    config = game.config
    n = config.players
    trade = state.trade
    players = []
    for seat in range(n):
        info: JsonDict = {
            "seat": seat,
            "coins": sum(state.coins[seat]),
            "board": _board_json(state.boards[seat]),
            "sacks": sacks(state.boards[seat]),
            "has_card": state.held[seat] is not None,
            "kept": state.kept[seat],
            "dealt": len(state.dealt[seat]),
            "hand_sealed": state.bids is not None,
        }
        if config.open_coins:
            info["coin_values"] = _coins_list(state.coins[seat], config.values)
        players.append(info)
    return {
        "game": game.game_id,
        "players": n,
        "seat": None,
        "round": state.round_no,
        "max_rounds": config.max_rounds,
        "phase": state.phase,
        "step": state.step,
        "acting": list(game.acting_players(state)),
        "chooser": state.chooser,
        "window_step": state.window_step,
        "pot": state.pot,
        "bag": {"coins": sum(state.bag), "known_values": _coins_list(state.bag_seen, config.values)},
        "corners": [sum(corner) for corner in state.corners],
        "table": players,
        "stack": len(state.stack),
        "plays": [_play_json(play) for play in state.plays],
        "trade": None
        if trade is None
        else {
            "bids": list(trade.bids),
            "hands": list(trade.hands),
            "counts": list(trade.counts),
            "order": list(trade.order),
            "corners_chosen": [c + 1 for c in trade.chosen],
            "lucien": trade.lucien,
        },
        "ria_seat": state.ria_seat,
        "rob_target": state.rob_target,
        "bernard_target": state.bernard_target,
        "rules": {
            "sow_cost": {str(c): c for c in PLANT_COSTS},
            "plough_cost": {str(c): config.plough_cost[c] for c in PLANT_COSTS},
            "capacity": {str(c): config.capacity[c] for c in PLANT_COSTS},
            "growth": {str(c): GROWTH[c] for c in PLANT_COSTS},
            "coins": {str(v): n for v, n in zip(config.values, config.coin_counts, strict=True)},
        },
        "log": list(state.log),
        "last_round_log": list(state.last_log),
        "over": state.step == "over",
        "winners": list(state.winners),
        "ended_by": state.ended_by,
        "options": {k: list(v) if isinstance(v, tuple) else v for k, v in game.options.items()},
    }


def observation(game: EigenKweek, state: KweekState, player: int) -> JsonDict:
    config = game.config
    view = public_view(game, state)
    view["seat"] = player
    view["you"] = {
        "tokens": state.tokens[player],
        "sealed_bid": state.bids[player] if state.bids is not None else None,
        "coins": _coins_list(state.coins[player], config.values),
        "coin_value": sum(v * n for v, n in zip(config.values, state.coins[player], strict=True)),
        "card": state.held[player],
        "dealt": sorted(state.dealt[player]),
        "ria_card": state.ria_card if state.ria_seat == player else None,
        "known_cards": {str(seat): card for obs, seat, card in sorted(state.knowledge) if obs == player},
        "stack_known": sorted(
            [card, where] for obs, card, where in state.stack_known if obs == player
        ),
        "notes": list(state.notes[player]),
    }
    return view


# ---- resampling -------------------------------------------------------------------------------
def resample(config: Config, state: KweekState, player: int, rng: Rng) -> KweekState:
    """A state ``player`` cannot tell apart from ``state`` (same observation).

    Cards, coin values and weed-token counts the player cannot see are dealt
    again at random from what it cannot place, keeping every count it sees and
    every card it knows the place of (its returned card stays in the stack, or
    with the one player RIA may have passed it to). Other players' private
    notes are dropped, and what they knew about cards is rewritten to the new
    cards, so the sample stays coherent for them too.

    What the sampler does not model: opponents' weed tokens are split among
    them at random (their total is fixed by what the player sees), although a
    player with perfect memory could follow every public gain and payment; and
    hidden coin values are redealt uniformly over opponents, corners and bag
    (coins seen paid into the bag since its last draw stay there), ignoring
    what older payments reveal about what an opponent may still hold.
    """
    d = Draft(state)
    _resample_cards(d, player, rng)
    _resample_coins(config, d, player, rng)
    _resample_tokens(d, player, rng)
    for seat in range(config.players):
        if seat != player:
            d.notes[seat] = []
    return d.freeze()


def _resample_cards(d: Draft, player: int, rng: Rng) -> None:
    n = len(d.held)
    known_seats = {seat for obs, seat, _ in d.knowledge if obs == player}
    # Hidden places: other players' unplayed cards, their dealt cards, RIA's drawn card.
    places: list[tuple[str, int, int]] = []
    pool: list[str] = []
    for seat in range(n):
        if seat == player:
            continue
        card = d.held[seat]
        if card is not None and seat not in known_seats:
            places.append(("held", seat, 0))
            pool.append(card)
        for index, dealt in enumerate(d.dealt[seat]):
            places.append(("dealt", seat, index))
            pool.append(dealt)
    if d.ria_card is not None and d.ria_seat != player:
        places.append(("ria", 0, 0))
        pool.append(d.ria_card)
    stack_size = len(d.stack)
    pool.extend(d.stack)
    if not places:
        return
    # The draw must depend on what the player knows only: the hidden cards as a set, never in the
    # order the true state holds them (a seeded sample would otherwise follow the true places).
    pool.sort()
    # Positions 0..len(places)-1 are the hidden places; the rest are the stack.
    total = len(pool)
    assignment: list[str | None] = [None] * total
    free = list(range(total))
    for obs, card, where in sorted(d.stack_known):
        if obs != player or card not in pool:
            continue
        allowed = [
            i
            for i in free
            if i >= len(places)
            or places[i] == ("held", where, 0)
            or (where == WITH_RIA and places[i][0] == "ria")
        ]
        if not allowed:
            continue
        chosen = allowed[rng.randrange(len(allowed))]
        assignment[chosen] = card
        free.remove(chosen)
        pool.remove(card)
    rng.shuffle(pool)
    for position, card in zip(free, pool, strict=True):
        assignment[position] = card
    old_held = list(d.held)
    new_stack: list[str] = []
    for position, card in enumerate(assignment):
        assert card is not None
        if position >= len(places):
            new_stack.append(card)
            continue
        kind, seat, index = places[position]
        if kind == "held":
            d.held[seat] = card
        elif kind == "dealt":
            d.dealt[seat][index] = card
        else:
            d.ria_card = card
    assert len(new_stack) == stack_size
    d.stack = new_stack
    # What other players knew stays true of the new cards.
    rewritten: set[tuple[int, int, str]] = set()
    for obs, seat, card in d.knowledge:
        now = d.held[seat]
        if obs == player:
            rewritten.add((obs, seat, card))
        elif now is not None:
            rewritten.add((obs, seat, now))
    d.knowledge = rewritten
    d.stack_known = {k for k in d.stack_known if k[0] == player}
    for index, play in enumerate(d.plays):
        if play.took is None or player in (play.seat, play.target) or play.blocked:
            continue
        if old_held[play.seat] == play.took and d.held[play.seat] is not None:
            d.plays[index] = Play(
                seat=play.seat,
                card=play.card,
                phase=play.phase,
                step=play.step,
                blocked=play.blocked,
                target=play.target,
                took=d.held[play.seat],
            )


def _resample_coins(config: Config, d: Draft, player: int, rng: Rng) -> None:
    width = len(config.values)
    places: list[list[int]] = []
    if not config.open_coins:
        places.extend(d.coins[seat] for seat in range(config.players) if seat != player)
    places.extend(d.corners)
    unseen_bag = [have - seen for have, seen in zip(d.bag, d.bag_seen, strict=True)]
    places.append(unseen_bag)
    pool = sorted(i for place in places for i, count in enumerate(place) for _ in range(count))
    rng.shuffle(pool)  # from the sorted pool: the same for every state the player cannot tell apart
    start = 0
    for place in places:
        size = sum(place)
        chunk = pool[start : start + size]
        start += size
        for i in range(width):
            place[i] = chunk.count(i)
    d.bag = [unseen + seen for unseen, seen in zip(unseen_bag, d.bag_seen, strict=True)]


def _resample_tokens(d: Draft, player: int, rng: Rng) -> None:
    others = [seat for seat in range(len(d.tokens)) if seat != player]
    sealed = d.bids
    total = sum(d.tokens[seat] + (sealed[seat] if sealed is not None else 0) for seat in others)
    shares = [0] * len(others)
    for _ in range(total):
        shares[rng.randrange(len(others))] += 1
    for seat, share in zip(others, shares, strict=True):
        if sealed is None:
            d.tokens[seat] = share
        else:
            bid = rng.randint(1, share) if share else 0
            sealed[seat] = bid
            d.tokens[seat] = share - bid


# ---- the fixed-length tensor --------------------------------------------------------------
def observation_tensor(game: EigenKweek, state: KweekState, player: int) -> list[float]:
    """``player``'s fixed-length view: the game, its own secrets, then each seat from its own.

    Written into a list of zeros by position (training steps build one per seat per
    step); tests/eigen_kweek/test_kweek_information.py checks it against a plain reading.
    """
    config = game.config
    n = config.players
    out = [0.0] * _SIZE
    out[_PHASE_AT[state.phase]] = 1.0
    out[_STEP_AT[state.step]] = 1.0
    at = _GAME_AT
    out[at] = state.round_no / config.max_rounds
    out[at + 1] = min(state.window_step, 10) / 10
    out[at + 2] = 1.0 if player in game.acting_players(state) else 0.0
    out[at + 3] = state.pot / TOTAL_TOKENS
    out[at + 4] = sum(state.bag) / TOTAL_COINS
    at += 5
    for number, corner in enumerate(state.corners):
        out[at + number] = sum(corner) / TOTAL_COINS
    at += CORNERS
    out[at] = state.tokens[player] / TOTAL_TOKENS
    out[at + 1] = (state.bids[player] if state.bids is not None else 0) / TOTAL_TOKENS
    at += 2
    own = dict(zip(config.values, state.coins[player], strict=True))
    for number, value in enumerate(COIN_VALUES):
        out[at + number] = own.get(value, 0) / TOTAL_COINS
    at += len(COIN_VALUES)
    held = state.held[player]
    if held is not None:
        out[at + _CARD_AT[held]] = 1.0
    at += _CARD_COUNT
    for card in set(state.dealt[player]):
        out[at + _CARD_AT[card]] = 1.0
    at += _CARD_COUNT
    if state.ria_seat == player and state.ria_card is not None:
        out[at + _CARD_AT[state.ria_card]] = 1.0
    at += _CARD_COUNT
    known = {seat: card for obs, seat, card in state.knowledge if obs == player}
    trade = state.trade
    winners = state.winners
    for offset in range(n):
        seat = (player + offset) % n
        base = at + offset * _SEAT_WIDTH
        out[base] = 1.0
        out[base + 1] = sum(state.coins[seat]) / TOTAL_COINS
        out[base + 2] = 1.0 if state.held[seat] is not None else 0.0
        out[base + 3] = 1.0 if state.kept[seat] else 0.0
        slot_at = base + 4
        board = state.boards[seat]
        for cost, slot in zip(PLANT_COSTS, board, strict=True):
            out[slot_at] = 1.0 if slot >= 0 else 0.0
            out[slot_at + 1] = max(slot, 0) / config.capacity[cost]
            out[slot_at + 2] = 1.0 if slot == SACK else 0.0
            slot_at += 3
        out[slot_at] = sacks(board) / 4
        played_at = slot_at + 1
        blocked_at = played_at + _CARD_COUNT
        for play in state.plays:
            if play.seat == seat:
                out[played_at + _CARD_AT[play.card]] = 1.0
                if play.blocked:
                    out[blocked_at + _CARD_AT[play.card]] = 1.0
        known_card = known.get(seat)
        known_at = blocked_at + _CARD_COUNT
        if known_card is not None:
            out[known_at + _CARD_AT[known_card]] = 1.0
        tail = known_at + _CARD_COUNT
        out[tail] = trade.counts[seat] / TOTAL_TOKENS if trade is not None else 0.0
        out[tail + 1] = 1.0 if trade is not None and seat in trade.order else 0.0
        out[tail + 2] = 1.0 if seat == state.bernard_target else 0.0
        out[tail + 3] = 1.0 if seat == state.chooser else 0.0
        out[tail + 4] = 1.0 if seat in winners else 0.0
    return out


_SEAT_WIDTH = 4 + 3 * len(PLANT_COSTS) + 1 + 3 * len(CARDS) + 5
_CARD_COUNT = len(CARDS)
_CARD_AT = {card: number for number, card in enumerate(CARDS)}
_PHASE_AT = {phase: number for number, phase in enumerate(PHASES)}
_STEP_AT = {step: len(PHASES) + number for number, step in enumerate(STEPS)}
_GAME_AT = len(PHASES) + len(STEPS)
_SIZE = _GAME_AT + 5 + CORNERS + 2 + len(COIN_VALUES) + 3 * _CARD_COUNT + MAX_SEATS * _SEAT_WIDTH
