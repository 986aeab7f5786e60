"""The Eigen Kweek heuristic: grow, bid for the richest corner, sow then plough over.

It reads only its observation. Characters are valued in rough weed-token
equivalents for the situation at hand; bids are a share of the collection that
grows with the coins piled on the table, with a little jitter so rival bots do
not tie every time; in the cultivate phase it ploughs when that wins the game,
otherwise sows the dearest plant card it can pay for (more growth), ploughs the
fullest card it can pay for, or harvests a full card.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gamebag.agents.base import Agent, SeatView
from gamebag.agents.registry import (
    HeuristicParameter,
    parameter_values,
    register_abstention,
    register_heuristic,
    register_heuristic_parameters,
)
from gamebag.core.protocol import Game, JsonDict
from gamebag.core.rng import Rng
from gamebag.games.eigen_kweek.components import CARDS, GROWTH
from gamebag.games.eigen_kweek.strategy import BLOCK_AT, HARM, KEEP_WORTH


class EigenKweekHeuristic(Agent):
    """The heuristic; ``abstain`` names cards it never chooses or plays (to measure their worth)."""

    name = "heuristic"

    def __init__(self, abstain: frozenset[str] = frozenset()) -> None:
        self.abstain = abstain

    def act(self, view: SeatView, rng: Rng) -> Any:
        legal = list(view.legal_actions)
        if self.abstain:
            legal = [a for a in legal if not abstains(view.observation, a, self.abstain)] or legal
        if len(legal) == 1:
            return legal[0]
        obs = view.observation
        step = obs["step"]
        handler = getattr(self, f"_{step}", None)
        choice = handler(obs, legal, rng) if handler is not None else None
        return choice if choice in legal else legal[0]

    # ---- characters -------------------------------------------------------------------------
    def _choose(self, obs: JsonDict, legal: list[str], rng: Rng) -> str:
        return _best(legal, lambda a: card_value(obs, a.split(":", 1)[1]), rng)

    def _window(self, obs: JsonDict, legal: list[str], rng: Rng) -> str:
        me = obs["seat"]
        blocks = [a for a in legal if a.startswith("block:")]
        if blocks:
            best = _best(blocks, lambda a: HARM.get(a.split(":", 1)[1], 0.0), rng)
            if HARM.get(best.split(":", 1)[1], 0.0) >= BLOCK_AT:
                return best
            return "pass"
        takes = [a for a in legal if a.startswith("take:")]
        if takes and obs["window_step"] == 1:
            return _best(takes, lambda a: _strength(obs, int(a.split(":")[1])), rng)
        plays = [a for a in legal if a.startswith("play:")]
        if plays and obs["window_step"] == 1 and _worth_playing(obs, plays[0].split(":", 1)[1], me):
            return plays[0]
        return "pass"

    def _ria_direction(self, obs: JsonDict, legal: list[str], rng: Rng) -> str:
        n, me = obs["players"], obs["seat"]
        drawn = obs["you"]["ria_card"]
        left, right = (me + 1) % n, (me - 1) % n
        good = drawn is not None and card_value(obs, drawn) >= 2.5
        # A strong card goes to the weaker neighbour, a weak one to the stronger.
        weaker_left = _strength(obs, left) <= _strength(obs, right)
        return "ria:left" if weaker_left == good else "ria:right"

    def _keun(self, obs: JsonDict, legal: list[str], rng: Rng) -> str:
        def gain(action: str) -> tuple[int, int]:
            _, seat, cost = action.split(":")
            return (_tokens_on(obs, int(seat), int(cost)), int(int(seat) != obs["seat"]))

        return _best(legal, gain, rng)

    def _griet(self, obs: JsonDict, legal: list[str], rng: Rng) -> str:
        rules, me = obs["rules"], obs["seat"]

        def room(action: str) -> int:
            cost = int(action.split(":")[1])
            return int(rules["capacity"][str(cost)]) - _tokens_on(obs, me, cost)

        return _best(legal, room, rng)

    def _rob(self, obs: JsonDict, legal: list[str], rng: Rng) -> str:
        def prize(action: str) -> tuple[int, int]:
            parts = action.split(":")
            value = int(parts[2]) if len(parts) == 3 else 0
            return (value, obs["table"][int(parts[1])]["coins"])

        return _best(legal, prize, rng)

    def _bernard(self, obs: JsonDict, legal: list[str], rng: Rng) -> str:
        return _best(legal, lambda a: _strength(obs, int(a.split(":")[1])), rng)

    def _keep(self, obs: JsonDict, legal: list[str], rng: Rng) -> str:
        card = obs["you"]["card"]
        return "keep" if card is not None and card_value(obs, card) >= KEEP_WORTH else "hand_in"

    # ---- trade --------------------------------------------------------------------------------
    def _bid(self, obs: JsonDict, legal: list[str], rng: Rng) -> str:
        tokens = obs["you"]["tokens"]
        richest = max(obs["corners"])
        share = min(0.8, 0.15 + 0.1 * richest)
        size = round(tokens * share) + rng.randrange(-1, 2)
        size = max(1, min(tokens, size))
        return f"bid:{size}"

    def _corner(self, obs: JsonDict, legal: list[str], rng: Rng) -> str:
        corners = obs["corners"]
        return _best(legal, lambda a: corners[int(a.split(":")[1]) - 1], rng)

    # ---- cultivate ----------------------------------------------------------------------------
    def _cultivate(self, obs: JsonDict, legal: list[str], rng: Rng) -> str:
        me = obs["seat"]
        my_sacks = obs["table"][me]["sacks"]
        ploughs = [a for a in legal if a.startswith("plough:")]
        sows = [a for a in legal if a.startswith("sow:")]
        if ploughs and my_sacks == 3:
            return _cheapest(ploughs)
        if sows:
            dearest = max(int(a.split(":")[1]) for a in sows)
            return _cheapest([a for a in sows if int(a.split(":")[1]) == dearest])
        if ploughs:
            fullest = max(ploughs, key=lambda a: (_tokens_on(obs, me, int(a.split(":")[1])), a))
            cost = fullest.split(":")[1]
            return _cheapest([a for a in ploughs if a.split(":")[1] == cost])
        harvests = [a for a in legal if a.startswith("harvest")]
        if "harvest_all" in harvests:
            return "harvest_all"
        capacity = obs["rules"]["capacity"]
        full = [a for a in harvests if _tokens_on(obs, me, int(a.split(":")[1])) >= int(capacity[a.split(":")[1]])]
        if full:
            return max(full, key=lambda a: _tokens_on(obs, me, int(a.split(":")[1])))
        if harvests and obs["you"]["tokens"] < 3:
            return max(harvests, key=lambda a: _tokens_on(obs, me, int(a.split(":")[1])))
        return "pass"


def abstains(obs: Mapping[str, Any], action: Any, cards: frozenset[str]) -> bool:
    """Whether a seat abstaining from ``cards`` refuses ``action``: choosing or playing one of
    them, blocking (JULITA's), taking (DEN OLLANDER's) or keeping one of them for next round."""
    kind, _, rest = str(action).partition(":")
    if kind in ("choose", "play"):
        return rest in cards
    if kind == "block":
        return "JULITA" in cards
    if kind == "take":
        return "DEN OLLANDER" in cards
    if kind == "keep":
        return obs["you"]["card"] in cards
    return False


def _best(actions: list[str], key: Callable[[str], Any], rng: Rng) -> str:
    """The action with the highest ``key``; ties broken at random so no seat is favoured."""
    scored = [(key(action), action) for action in actions]
    top = max(score for score, _ in scored)
    best = [action for score, action in scored if score == top]
    return best[rng.randrange(len(best))]


def _cheapest(actions: list[str]) -> str:
    """The payment with the least value, then the most (small) coins."""

    def key(action: str) -> tuple[int, int, str]:
        coins = [int(c) for c in action.split(":")[2].split("+")]
        return (sum(coins), -len(coins), action)

    return min(actions, key=key)


def _tokens_on(obs: JsonDict, seat: int, cost: int) -> int:
    for slot in obs["table"][seat]["board"]:
        if slot["cost"] == cost:
            return int(slot["tokens"])
    return 0


def _strength(obs: JsonDict, seat: int) -> tuple[int, int, int]:
    info = obs["table"][seat]
    laid = sum(1 for slot in info["board"] if slot["status"] != "empty")
    return (info["sacks"], laid, info["coins"])


def _my_board(obs: JsonDict) -> list[JsonDict]:
    board: list[JsonDict] = obs["table"][obs["seat"]]["board"]
    return board


def card_value(obs: JsonDict, card: str) -> float:
    """A rough worth of holding ``card`` this round, in weed tokens."""
    me = obs["seat"]
    board = _my_board(obs)
    growing = [s for s in board if s["status"] == "growing"]
    capacity = obs["rules"]["capacity"]
    if card == "KEUN":
        best = max(
            (
                s["tokens"] + GROWTH[s["cost"]]
                for info in obs["table"]
                for s in info["board"]
                if s["status"] == "growing"
            ),
            default=0,
        )
        return min(best, 8) * 0.8
    if card == "FLUPPE":
        return 2.0 * len(growing)
    if card == "GRIET":
        return (
            max((int(capacity[str(s["cost"])]) - int(s["tokens"]) - GROWTH[s["cost"]] for s in growing), default=0)
            * 0.9
        )
    if card == "PASTOOR":
        return 3.0 if any(info["coins"] for info in obs["table"] if info["seat"] != me) else 0.0
    if card == "STEVEN":
        return 3.0
    if card == "CHANTAL":
        return 0.9 * (int(obs["players"]) - 1)
    if card == "FRANK":
        return 3.5 if int(obs["you"]["coin_value"]) >= 2 else 1.0
    if card == "BERNARD":
        leader = max((_strength(obs, s) for s in range(obs["players"]) if s != me), default=(0, 0, 0))
        return 1.5 + leader[0]
    if card == "JOS":
        loaded = sorted((s["tokens"] + GROWTH[s["cost"]] for s in growing), reverse=True)
        return float(sum(loaded[1:]))
    if card in ("JULITA", "DEN OLLANDER"):
        return 2.0
    if card in ("LUCIEN", "STEFAAN"):
        return 1.5
    return 1.0  # RIA


def _worth_playing(obs: JsonDict, card: str, me: int) -> bool:
    board = _my_board(obs)
    if card == "KEUN":
        return any(s["tokens"] > 0 for info in obs["table"] for s in info["board"])
    if card == "FLUPPE":
        return any(s["status"] == "growing" for s in board)
    if card == "GRIET":
        capacity = obs["rules"]["capacity"]
        return any(s["status"] == "growing" and s["tokens"] < int(capacity[str(s["cost"])]) for s in board)
    if card == "PASTOOR":
        return any(info["coins"] for info in obs["table"] if info["seat"] != me)
    if card == "LUCIEN":
        sealed = obs["you"]["sealed_bid"]
        return sealed is not None and sealed <= 2
    if card == "FRANK":
        return bool(obs["you"]["coin_value"] >= 1)
    if card == "JOS":
        return sum(1 for s in board if s["tokens"] > 0) >= 2
    return True


def _make(game: Game[Any, Any, Any]) -> Agent:
    return EigenKweekHeuristic()


ABSTAIN = HeuristicParameter(
    "abstain", CARDS, "character cards the heuristic never chooses, plays or keeps (to measure their worth)"
)


def _make_configured(game: Game[Any, Any, Any], params: Mapping[str, str]) -> Agent:
    abstain = params.get("abstain", "")
    return EigenKweekHeuristic(frozenset(parameter_values(ABSTAIN, abstain)) if abstain else frozenset())


register_heuristic("eigen-kweek", _make)
register_heuristic_parameters("eigen-kweek", (ABSTAIN,), _make_configured)
register_abstention("eigen-kweek", ABSTAIN, abstains)
