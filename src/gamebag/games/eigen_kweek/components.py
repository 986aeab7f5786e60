"""Eigen Kweek's components, options and the numbers derived from them.

The rulebook names the components (35 coins, 116 weed tokens, 16 plant cards,
14 character cards) but leaves the numbers printed on them: coin values, how
many tokens a plant card holds and what ploughing it over costs. Those are
options here (rulings.md, Eigen Kweek); their defaults were chosen by
simulation (``bench/tune_eigen_kweek.py``, figures in ``rules.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from gamebag.core.engines import ANY, EngineSupport
from gamebag.core.errors import OptionError
from gamebag.core.options import Option, OptionGroup
from gamebag.games.eigen_kweek.nodes import Phase
from gamebag.games.eigen_kweek.translation import N_

TOTAL_TOKENS = 116
START_TOKENS = 10
TOTAL_COINS = 35
CORNERS = 4
PLANT_COSTS = (2, 4, 6, 8)
GROWTH = {2: 1, 4: 1, 6: 2, 8: 3}  # weed tokens a plant card grows each round (rulings.md)
SACKS_TO_WIN = 4
COIN_VALUES = (1, 2, 3, 4, 5)  # the face values a coin option may give coins

# A plant slot on a player board holds the number of weed tokens on a growing card,
# or one of these markers.
EMPTY = -1
SACK = -2

# The 14 character cards in the rulebook's order, with the phase in which each is played
# (None: "Phase: All").
CARD_PHASE: dict[str, Phase | None] = {
    "RIA": Phase.DEAL,
    "KEUN": Phase.GROWTH,
    "FLUPPE": Phase.GROWTH,
    "GRIET": Phase.GROWTH,
    "PASTOOR": Phase.GROWTH,
    "STEVEN": Phase.TRADE,
    "CHANTAL": Phase.TRADE,
    "LUCIEN": Phase.TRADE,
    "STEFAAN": Phase.TRADE,
    "FRANK": Phase.CULTIVATE,
    "BERNARD": Phase.CULTIVATE,
    "JOS": Phase.CULTIVATE,
    "JULITA": None,
    "DEN OLLANDER": None,
}
CARDS: tuple[str, ...] = tuple(CARD_PHASE)
# Each card's special action in the rulebook's words ("Extended Description").
CARD_TEXT: dict[str, str] = {
    "RIA": N_(
        "Play this character card after all players have chosen a character card. When you play this "
        "card, the stack of character cards is shuffled and you may blindly take a character card. You look at "
        "the card and pass it to the player to your left or right. Depending on your choice, all players pass "
        "their character card to the left or to the right."
    ),
    "KEUN": N_(
        "When you play this character card, you may take all weed tokens from one plant card. This may "
        "be from your own plant card or from an opponent's."
    ),
    "FLUPPE": N_(
        "When you play this character card, you immediately receive two weed tokens for each plant "
        "card on your player board. Add these to your collection."
    ),
    "GRIET": N_(
        "When you play this character card, you may completely fill one plant card of your choice with "
        "weed tokens."
    ),
    "PASTOOR": N_(
        "When you play this character card, you may take one coin of your choice from an opponent and "
        "add it to your own collection."
    ),
    "STEVEN": N_(
        "When you play this character card, you may add 2 weed tokens to your bid. NOTE: You do not "
        "physically receive these 2 tokens into your bid."
    ),
    "CHANTAL": N_(
        "When you play this character card, you receive from every player 1 weed token of the bid "
        "they hold in their hand. You add these weed tokens to your collection. Only after this is the bid "
        "counted. NOTE: You do not add these weed tokens to your own bid."
    ),
    "LUCIEN": N_(
        "When you play this character card, you may, if you have bid the lowest, blindly take one coin "
        "from the coin bag and add it to your collection. NOTE: In case of a tie, or if no one has bid, no coin "
        "may be taken from the coin bag. This does not count as the lowest bid."
    ),
    "STEFAAN": N_(
        "When you play this character card, in case of a tie (the same bid), you may take coins from "
        "the trading table first, at the corner where you hand in your weed tokens. NOTE: The other players who "
        "have the same bid win nothing and return their bid to their collection."
    ),
    "FRANK": N_(
        "When you play this character card, you only need to pay half of the indicated price when "
        "sowing or ploughing over."
    ),
    "BERNARD": N_(
        "When you play this character card, you may block an opponent for the entire cultivate phase. "
        "The blocked player can therefore do nothing in this phase."
    ),
    "JOS": N_(
        "When you play this character card, you may, during the harvest, empty all your plant cards at "
        "the same time. You therefore take all weed tokens from all your own plant cards."
    ),
    "JULITA": N_(
        "When you play this character card, you may block a character card of an opponent and undo its "
        "effect. NOTE: The whole character card is blocked. So even if that card had an effect on the other "
        "players, that effect is also undone for those players."
    ),
    "DEN OLLANDER": N_(
        "When you play this character card, you may take a character card of an opponent and use "
        "it. NOTE: You may only take character cards that have not been played."
    ),
}
JULITA = "JULITA"
OLLANDER = "DEN OLLANDER"
# Cards played with "play:<CARD>" (JULITA is played as "block:<CARD>", DEN OLLANDER as "take:<seat>").
PLAIN_CARDS: tuple[str, ...] = tuple(c for c in CARDS if CARD_PHASE[c] is not None)
# Within a window, played cards take effect in the rulebook's order of the cards.
RESOLUTION_ORDER: dict[str, int] = {card: index for index, card in enumerate(CARDS)}

DEFAULT_COINS = {1: 10, 2: 10, 3: 10, 4: 0, 5: 5}
DEFAULT_CAPACITY = {2: 3, 4: 3, 6: 6, 8: 9}
DEFAULT_PLOUGH_COST = {2: 1, 4: 2, 6: 3, 8: 4}
DEFAULT_MAX_ROUNDS = 60

# The options' words, one catalogue message each (``game_text`` shows them in the reader's language).
_COIN_TEXT = {
    1: N_("How many of the 35 coins are worth 1 (the counts of all values must add up to 35)."),
    2: N_("How many of the 35 coins are worth 2 (the counts of all values must add up to 35)."),
    3: N_("How many of the 35 coins are worth 3 (the counts of all values must add up to 35)."),
    4: N_("How many of the 35 coins are worth 4 (the counts of all values must add up to 35)."),
    5: N_("How many of the 35 coins are worth 5 (the counts of all values must add up to 35)."),
}
_CAPACITY_TEXT = {
    2: N_("How many weed tokens the plant card costing 2 holds when full."),
    4: N_("How many weed tokens the plant card costing 4 holds when full."),
    6: N_("How many weed tokens the plant card costing 6 holds when full."),
    8: N_("How many weed tokens the plant card costing 8 holds when full."),
}
_PLOUGH_TEXT = {
    2: N_("What ploughing over the plant card costing 2 costs, in coin value."),
    4: N_("What ploughing over the plant card costing 4 costs, in coin value."),
    6: N_("What ploughing over the plant card costing 6 costs, in coin value."),
    8: N_("What ploughing over the plant card costing 8 costs, in coin value."),
}


def _coin_option(value: int) -> Option:
    return Option(
        f"coins_worth_{value}",
        "int",
        DEFAULT_COINS[value],
        _COIN_TEXT[value],
        minimum=0,
        maximum=TOTAL_COINS,
    )


def _capacity_option(cost: int) -> Option:
    return Option(
        f"capacity_{cost}",
        "int",
        DEFAULT_CAPACITY[cost],
        _CAPACITY_TEXT[cost],
        minimum=1,
        maximum=40,
    )


def _plough_option(cost: int) -> Option:
    return Option(
        f"plough_cost_{cost}",
        "int",
        DEFAULT_PLOUGH_COST[cost],
        _PLOUGH_TEXT[cost],
        minimum=1,
        maximum=20,
    )


OPTION_SPECS: tuple[Option, ...] = (
    *(_coin_option(v) for v in COIN_VALUES),
    *(_capacity_option(c) for c in PLANT_COSTS),
    *(_plough_option(c) for c in PLANT_COSTS),
    Option(
        "max_rounds",
        "int",
        DEFAULT_MAX_ROUNDS,
        N_(
            "The game ends after this many rounds if nobody has four potato sacks; then the most sacks "
            "win (tie-break in the rules). Results say when the cap ended a game."
        ),
        minimum=1,
        maximum=1000,
    ),
    Option(
        "coin_visibility",
        "choice",
        "secret",
        N_(
            "secret: a player's coin values are known to that player only; open: coins in collections "
            "lie face up (coins on the trading table and in the bag stay hidden either way)."
        ),
        choices=("secret", "open"),
    ),
    Option(
        "stefaan_order",
        "choice",
        "first",
        N_(
            "tie: STEFAAN wins a tie and chooses in that bid's place in the order; first: a STEFAAN who "
            "wins a tie chooses a corner before every other player."
        ),
        choices=("tie", "first"),
    ),
    Option(
        "fluppe_counts_sacks",
        "bool",
        True,
        N_(
            "true (the rulebook's words): FLUPPE pays two weed tokens for each plant card on the board, "
            "potato sacks (ploughed-over cards) included; false: for each growing plant card only."
        ),
    ),
)


# Numbers that are given together: a coin set must add up to 35, and a designer compares whole sets
# of capacities or plough costs (``--vary coins=10/10/10/0/5,20/10/5/0/0``).
OPTION_GROUPS: tuple[OptionGroup, ...] = (
    OptionGroup(
        "coins",
        tuple(f"coins_worth_{v}" for v in COIN_VALUES),
        N_("The coin set: how many coins are worth 1/2/3/4/5 (adding up to 35)."),
    ),
    OptionGroup(
        "capacity",
        tuple(f"capacity_{c}" for c in PLANT_COSTS),
        N_("The plant capacities of the cards costing 2/4/6/8."),
    ),
    OptionGroup(
        "plough_cost",
        tuple(f"plough_cost_{c}" for c in PLANT_COSTS),
        N_("What ploughing over the cards costing 2/4/6/8 costs."),
    ),
)

# Which engines play each option (gamebag.core.engines): the numba kernels (gamebag.fast.eigen_kweek)
# take every option as a parameter, each proven by the replays of tests/fast/test_kweek_equality.py
# over the option sets of tests/equality_sets.py.
ENGINES = EngineSupport(OPTION_SPECS, {spec.name: {"numba": ANY} for spec in OPTION_SPECS})


@dataclass(frozen=True)
class Config:
    """The numbers of one configuration, derived from validated options."""

    players: int
    values: tuple[int, ...]  # the coin face values in use, ascending
    coin_counts: tuple[int, ...]  # how many coins of each value in ``values``
    capacity: Mapping[int, int]
    plough_cost: Mapping[int, int]
    max_rounds: int
    open_coins: bool
    stefaan_first: bool
    fluppe_counts_sacks: bool

    @property
    def pot_start(self) -> int:
        return TOTAL_TOKENS - START_TOKENS * self.players

    def price(self, kind: str, cost: int, frank: bool) -> int:
        """What sowing or ploughing the ``cost`` card costs; FRANK halves it, rounding up."""
        full = cost if kind == "sow" else self.plough_cost[cost]
        return (full + 1) // 2 if frank else full

    def prices(self, kind: str, cost: int) -> tuple[int, ...]:
        """Every price the action may have (full, and halved by FRANK)."""
        return tuple(sorted({self.price(kind, cost, False), self.price(kind, cost, True)}))


@dataclass(frozen=True, slots=True)
class EigenKweekOptions:
    """The options of one game, typed (``OPTION_SPECS`` holds their bounds, defaults and words)."""

    coins_worth_1: int
    coins_worth_2: int
    coins_worth_3: int
    coins_worth_4: int
    coins_worth_5: int
    capacity_2: int
    capacity_4: int
    capacity_6: int
    capacity_8: int
    plough_cost_2: int
    plough_cost_4: int
    plough_cost_6: int
    plough_cost_8: int
    max_rounds: int
    coin_visibility: str
    stefaan_order: str
    fluppe_counts_sacks: bool

    @property
    def coin_counts(self) -> dict[int, int]:
        """How many coins are worth each of ``COIN_VALUES``."""
        counts = (self.coins_worth_1, self.coins_worth_2, self.coins_worth_3, self.coins_worth_4, self.coins_worth_5)
        return dict(zip(COIN_VALUES, counts, strict=True))

    @property
    def capacities(self) -> dict[int, int]:
        """Each plant card's capacity, by the card's cost (``PLANT_COSTS``)."""
        return dict(zip(PLANT_COSTS, (self.capacity_2, self.capacity_4, self.capacity_6, self.capacity_8), strict=True))

    @property
    def plough_costs(self) -> dict[int, int]:
        """What ploughing each plant card over costs, by the card's cost (``PLANT_COSTS``)."""
        costs = (self.plough_cost_2, self.plough_cost_4, self.plough_cost_6, self.plough_cost_8)
        return dict(zip(PLANT_COSTS, costs, strict=True))


def build_config(players: int, settings: EigenKweekOptions) -> Config:
    """Check the options together (coin counts must add up to 35) and derive the numbers."""
    counts = settings.coin_counts
    total = sum(counts.values())
    if total != TOTAL_COINS:
        given = ", ".join(f"coins_worth_{v}={n}" for v, n in counts.items())
        raise OptionError(
            f"the coin counts must add up to the game's {TOTAL_COINS} coins, not {total} ({given})"
        )
    values = tuple(v for v in COIN_VALUES if counts[v] > 0)
    return Config(
        players=players,
        values=values,
        coin_counts=tuple(counts[v] for v in values),
        capacity=settings.capacities,
        plough_cost=settings.plough_costs,
        max_rounds=settings.max_rounds,
        open_coins=settings.coin_visibility == "open",
        stefaan_first=settings.stefaan_order == "first",
        fluppe_counts_sacks=settings.fluppe_counts_sacks,
    )


@cache
def minimal_payments(price: int, values: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every way to pay ``price`` without a superfluous coin, as counts per value.

    There is no change (paid coins go back into the bag), so a payment may exceed
    the price, but only if no coin of it could be left out. Payments are ordered
    by total value, then by fewer coins.
    """
    found: list[tuple[int, ...]] = []
    largest = max(values)

    def extend(index: int, counts: list[int], total: int) -> None:
        if total >= price:
            smallest = min(values[i] for i, n in enumerate(counts) if n > 0) if total else 0
            if total - smallest < price:
                found.append(tuple(counts))
            return
        if index < 0 or total >= price + largest:
            return
        value = values[index]
        most = (price - total + value - 1) // value
        for n in range(most, -1, -1):
            counts[index] = n
            extend(index - 1, counts, total + n * value)
        counts[index] = 0

    if price <= 0:
        return ((0,) * len(values),)
    extend(len(values) - 1, [0] * len(values), 0)
    unique = set(found)
    return tuple(
        sorted(unique, key=lambda m: (sum(n * v for n, v in zip(m, values, strict=True)), sum(m), m[::-1]))
    )


def payment_text(counts: tuple[int, ...], values: tuple[int, ...]) -> str:
    """``(1, 0, 2)`` with values (1, 2, 3) -> ``"3+3+1"`` (largest coins first)."""
    coins = [str(v) for v, n in zip(values, counts, strict=True) for _ in range(n)]
    return "+".join(reversed(coins))


def payment_value(counts: tuple[int, ...], values: tuple[int, ...]) -> int:
    return sum(n * v for n, v in zip(counts, values, strict=True))
