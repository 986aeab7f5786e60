"""What every reachable Eigen Kweek position keeps: the game's ``validate_state`` hook.

The conformance suite (``gamebag.testing.information``) runs it on every state of its playouts and
on every state a sampler draws, and the compiled sampler's tests on every world it draws: a world
that breaks one of these could never be reached by play, so a seat's analysis must not rest on it.

* weed tokens: 116 in all (pot, collections, sealed hands, plant cards), none negative;
* coins: of each value, the configuration's count (collections, corners, bag), none negative,
  and the coins seen paid into the bag are in it;
* character cards: each card in at most one hidden place (the stack, a dealt pair, a held card,
  RIA's drawn card) and none of them also lies played on the table;
* knowledge: what a player knows another holds is what that player holds.
"""

from __future__ import annotations

from collections import Counter

from gamebag.games.eigen_kweek.components import CARDS, TOTAL_TOKENS, Config
from gamebag.games.eigen_kweek.state import KweekState, coins_in_play, tokens_in_play


def state_problem(config: Config, state: KweekState) -> str | None:
    """What makes ``state`` one no play reaches (one line), or ``None``."""
    if tokens_in_play(state) != TOTAL_TOKENS:
        return f"{tokens_in_play(state)} weed tokens are in play, not {TOTAL_TOKENS}"
    sealed = state.bids if state.bids is not None else ()
    if min((state.pot, *state.tokens, *sealed)) < 0:
        return "a weed token count is negative"
    if coins_in_play(state) != config.coin_counts:
        return f"the coins in play per value are {coins_in_play(state)}, not {config.coin_counts}"
    places = [*state.coins, *state.corners, state.bag, state.bag_seen]
    if any(count < 0 for place in places for count in place):
        return "a coin count is negative"
    if any(seen > have for seen, have in zip(state.bag_seen, state.bag, strict=True)):
        return "more coins are known to be in the bag than it holds"
    hidden = [*state.stack, *(card for pair in state.dealt for card in pair)]
    hidden += [card for card in (*state.held, state.ria_card) if card is not None]
    twice = sorted(card for card, count in Counter(hidden).items() if count > 1)
    if twice:
        return f"{', '.join(twice)} lies in two places at once"
    unknown = sorted(set(hidden) - set(CARDS))
    if unknown:
        return f"{', '.join(unknown)} is not a character card"
    played = sorted({play.card for play in state.plays} & set(hidden))
    if played:
        return f"{', '.join(played)} is both played and unplayed"
    for observer, seat, card in sorted(state.knowledge):
        if state.held[seat] != card:
            return f"seat {observer} knows seat {seat} holds {card}, but it holds {state.held[seat]}"
    return None
