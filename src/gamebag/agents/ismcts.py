"""The ``ismcts`` agent: information-set Monte Carlo tree search for every game.

The agent sees only its ``SeatView``. Each iteration draws a full state the seat
cannot tell apart from the real one (``view.sample_state``), then walks a search
tree whose nodes are *information sets*, not states:

* the searching seat's nodes are keyed by its own observation (and its own last
  action), so two determinisations it cannot tell apart share statistics and a
  chance outcome hidden from it never splits its tree;
* every other seat has its own tree too (as in multiple-observer ISMCTS); with
  ``opponents=public`` (the default) its nodes are keyed by the public view, so
  it is modelled as playing from common knowledge, and with
  ``opponents=private`` by its own observation in the sampled state (it plays as
  if it knew its sampled secrets; sharper, but spreads the statistics thinner);
* a node where several seats choose at once is searched natively with decoupled
  UCT: each acting seat picks from its own statistics with UCB1 (counting, per
  action, how often it was available), and the joint action is applied once;
* chance nodes are sampled with ``game.sample_chance``; below the tree the game
  is played out by a rollout policy (``rollout=auto``, the default: the game's
  ``heuristic`` agent where it has one, else uniformly random moves;
  ``rollout=random`` or ``rollout=heuristic`` force one), and every seat's
  statistics receive its own return (``game.returns``: its share of the win).
  Where the game has a compiled fast engine that plays the rollout policy
  (``gamebag.fast``, proven equal to the rules engine), playouts run there, a
  hundred times faster or more (``playouts=auto``, the default);
  ``playouts=rules`` keeps them on the rules engine.

In-tree selection is UCB1 with availability counts. With ``bias=b > 0`` it adds
a fading bonus ``b / sqrt(n + 1)`` to the action the game's ``heuristic`` agent
would choose from that seat's own view (a prior, for games whose heuristic is
strong). The default is no bias: in Catch A Dragon a bias towards its heuristic
cost strength, and in the Eel games it made no measurable difference (see
``docs/agents.md``).

Budget: ``iterations`` (deterministic) or ``ms`` (wall-clock per move); with both,
the search stops at whichever comes first. Naming neither gives the default,
``DEFAULT_ITERATIONS`` iterations capped at ``DEFAULT_TIME_CAP_MS`` so that a bot
never keeps a person waiting; the cap only binds in games whose playouts are slow
(Eigen Kweek), and only there is the default not reproducible: name
``iterations=N`` for exact reproducibility. All randomness comes from one
generator seeded from the caller's, so the same seed gives the same move under an
iteration budget, and the caller's stream advances by exactly one draw per move.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gamebag.agents.base import Agent, SeatView
from gamebag.agents.registry import check_params, float_param, heuristic_for, int_param, register_agent
from gamebag.core.errors import UnknownAgentError
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.rng import Rng
from gamebag.core.translation import N_
from gamebag.fast import engine_for

DEFAULT_ITERATIONS = 1000
DEFAULT_TIME_CAP_MS = 900.0
MAX_ITERATIONS = 1_000_000  # a budget's bound per decision (docs/agents.md): minutes of search at most
MAX_TIME_MS = 60_000.0
DEFAULT_EXPLORATION = 0.7
DEFAULT_BIAS = 0.0
# A playout this long is treated as a draw (no game in the bag comes close; it guards bugs).
MAX_ROLLOUT_STEPS = 20_000

ROLLOUT_POLICIES = ("auto", "random", "heuristic")
PLAYOUT_ENGINES = ("auto", "rules")
OPPONENT_MODELS = ("public", "private")
FINAL_CHOICES = ("best", "mix")
PARAMETERS = ("iterations", "ms", "c", "bias", "rollout", "opponents", "final", "playouts")


@dataclass(frozen=True)
class SearchSettings:
    """How one ``ismcts`` agent searches (see the module docstring)."""

    iterations: int | None = DEFAULT_ITERATIONS
    time_ms: float | None = None
    exploration: float = DEFAULT_EXPLORATION
    rollout: str = "auto"
    opponents: str = "public"
    final: str = "best"
    bias: float = DEFAULT_BIAS
    playouts: str = "auto"


@dataclass(frozen=True)
class ActionStats:
    """The root statistics of one action after a search."""

    visits: int
    mean_return: float


class _Edge:
    """Statistics of one action at one information-set node."""

    __slots__ = ("available", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.available = 0


class _Node:
    """An information-set node of one seat's tree."""

    __slots__ = ("children", "edges", "preferred")

    def __init__(self) -> None:
        self.edges: dict[Any, _Edge] = {}
        self.children: dict[Hashable, _Node] = {}
        self.preferred: Any = _UNSET  # the heuristic's choice here, the search's prior


_UNSET = object()


def _dump(view: Mapping[str, Any]) -> str:
    """A canonical text key for a JSON-ready view."""
    return json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)


class _Search:
    """One move's search: a forest of per-seat information-set trees."""

    def __init__(self, game: Game[Any, Any, Any], me: int, settings: SearchSettings) -> None:
        self.game = game
        self.me = me
        self.settings = settings
        self.roots = [_Node() for _ in range(game.num_players)]
        self.rollout_agent = rollout_policy(game, settings.rollout)
        self.prior_agent = rollout_policy(game, "auto")
        self.compiled = compiled_playout(game, self.rollout_agent) if settings.playouts == "auto" else None

    def _key(self, state: Any, player: int, public_key: list[str]) -> str:
        if player == self.me or self.settings.opponents == "private":
            return _dump(self.game.observation(state, player))
        if not public_key:
            public_key.append(_dump(self.game.public_view(state)))
        return public_key[0]

    def _select(self, node: _Node, legal: Sequence[Any], rng: Rng) -> tuple[Any, _Edge, bool]:
        """UCB1 with availability counts; untried actions first.

        With ``bias=b > 0`` the action the heuristic prefers gets ``b / sqrt(n + 1)``
        more, a prior that fades as that action is visited.
        """
        edges = node.edges
        untried: list[Any] = []
        for action in legal:
            edge = edges.get(action)
            if edge is None:
                edge = _Edge()
                edges[action] = edge
            edge.available += 1
            if edge.visits == 0:
                untried.append(action)
        if untried:
            action = untried[rng.randrange(len(untried))]
            return action, edges[action], True
        c = self.settings.exploration
        preferred, bias = node.preferred, self.settings.bias
        best_action: Any = None
        best_edge: _Edge | None = None
        best_score = -math.inf
        for action in legal:
            edge = edges[action]
            score = edge.total / edge.visits + c * math.sqrt(math.log(edge.available) / edge.visits)
            if bias and action == preferred:
                score += bias / math.sqrt(edge.visits + 1)
            if score > best_score:
                best_action, best_edge, best_score = action, edge, score
        assert best_edge is not None  # legal is never empty at a decision node
        return best_action, best_edge, False

    def iterate(self, state: Any, rng: Rng) -> None:
        """One determinised descent, expansion, playout and update."""
        game = self.game
        cursors = list(self.roots)
        last_action: list[Any] = [None] * game.num_players
        path: list[tuple[int, _Edge]] = []
        in_tree = True
        steps = 0
        terminal, chance = NodeKind.TERMINAL, NodeKind.CHANCE
        while True:
            kind = game.node_kind(state)
            if kind is terminal:
                break
            if not in_tree and self.compiled is not None:
                try:
                    returns = self.compiled(state, rng)
                except Exception:  # a broken compiler: the rules engine plays out from here on
                    returns = None
                if returns is not None:
                    self._update(path, returns)
                    return
                self.compiled = None
            if kind is chance:
                state = game.sample_and_apply_chance(state, rng)[1]
                continue
            steps += 1
            if steps > MAX_ROLLOUT_STEPS:
                self._update(path, (1.0 / game.num_players,) * game.num_players)
                return
            acting = game.acting_players(state)
            moves: dict[int, Any] = {}
            if in_tree:
                public_key: list[str] = []
                for player in acting:
                    key = (last_action[player], self._key(state, player, public_key))
                    parent = cursors[player]
                    node = parent.children.get(key)
                    if node is None:
                        node = _Node()
                        parent.children[key] = node
                        in_tree = False
                    cursors[player] = node
                    if node.preferred is _UNSET:
                        node.preferred = self._preferred(state, player, rng)
                    action, edge, fresh = self._select(node, game.legal_actions(state, player), rng)
                    if fresh:
                        in_tree = False
                    path.append((player, edge))
                    moves[player] = action
                    last_action[player] = action
            elif self.rollout_agent is not None:
                for player in acting:
                    moves[player] = self.rollout_agent.act(SeatView(game, state, player), rng)
            else:
                for player in acting:
                    legal = game.legal_actions(state, player)
                    moves[player] = legal[rng.randrange(len(legal))]
            state = game.apply(state, moves)
        self._update(path, game.returns(state))

    def _preferred(self, state: Any, player: int, rng: Rng) -> Any:
        """The heuristic's choice from ``player``'s own view (``None`` without a prior)."""
        if self.prior_agent is None or self.settings.bias <= 0:
            return None
        return self.prior_agent.act(SeatView(self.game, state, player), rng)

    @staticmethod
    def _update(path: list[tuple[int, _Edge]], returns: Sequence[float]) -> None:
        for player, edge in path:
            edge.visits += 1
            edge.total += returns[player]

    def root_stats(self) -> dict[Any, ActionStats]:
        """Visits and mean return of each action the searching seat tried at the root."""
        children = list(self.roots[self.me].children.values())
        if not children:
            return {}
        root = children[0]  # the searching seat always sees the same root observation
        return {
            action: ActionStats(edge.visits, edge.total / edge.visits if edge.visits else 0.0)
            for action, edge in root.edges.items()
        }


class IsmctsAgent(Agent):
    """Information-set MCTS from the seat's observation only."""

    name = "ismcts"

    def __init__(self, game: Game[Any, Any, Any], settings: SearchSettings | None = None) -> None:
        self.game = game
        self.settings = settings if settings is not None else SearchSettings()
        if self.settings.iterations is None and self.settings.time_ms is None:
            raise UnknownAgentError("ismcts needs a budget: iterations=N or ms=N")

    def search(self, view: SeatView, rng: Rng) -> dict[Any, ActionStats]:
        """Run the search for ``view`` and return the root statistics."""
        search = _Search(self.game, view.player, self.settings)
        limit = self.settings.iterations
        deadline = time.perf_counter() + self.settings.time_ms / 1000.0 if self.settings.time_ms is not None else None
        done = 0
        while (limit is None or done < limit) and (deadline is None or done == 0 or time.perf_counter() < deadline):
            search.iterate(view.sample_state(rng), rng)
            done += 1
        return search.root_stats()

    def act(self, view: SeatView, rng: Rng) -> Any:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        search_rng = random.Random(rng.getrandbits(64))
        stats = self.search(view, search_rng)
        candidates = [a for a in legal if a in stats and stats[a].visits > 0]
        if not candidates:
            return legal[search_rng.randrange(len(legal))]
        if self.settings.final == "mix":
            weights = [stats[a].visits for a in candidates]
            return search_rng.choices(candidates, weights=weights)[0]
        return max(candidates, key=lambda a: (stats[a].visits, stats[a].mean_return))


def rollout_policy(game: Game[Any, Any, Any], rollout: str) -> Agent | None:
    """The agent that plays out below the tree (``None``: uniformly random moves).

    ``auto`` uses the game's ``heuristic`` agent when it has one: playouts by
    sensible players estimate a position's worth far better than random ones.
    """
    if rollout == "random":
        return None
    if rollout == "heuristic":
        return heuristic_for(game)
    try:
        return heuristic_for(game)
    except UnknownAgentError:
        return None


def compiled_playout(
    game: Game[Any, Any, Any], rollout_agent: Agent | None
) -> Callable[[Any, Rng], tuple[float, ...] | None] | None:
    """Playouts on the fast engine with the compiled copy of the rollout policy, where one exists."""
    policy = "random" if rollout_agent is None else rollout_agent.name
    agents = [policy] * game.num_players
    engine = engine_for(game, agents)
    if engine is None:
        return None

    def playout(state: Any, rng: Rng) -> tuple[float, ...] | None:
        return engine.playout(game, state, agents, rng.getrandbits(64))

    return playout


def choice_param(params: Mapping[str, str], key: str, default: str, allowed: tuple[str, ...]) -> str:
    """Read a parameter that takes one of a few words, with a clear error."""
    value = params.get(key, default)
    if value not in allowed:
        raise UnknownAgentError(f"agent parameter {key}={value!r} must be one of: {', '.join(allowed)}")
    return value


def settings_from_params(game: Game[Any, Any, Any], params: Mapping[str, str]) -> SearchSettings:
    """Parse ``ismcts`` parameters (``iterations``, ``ms``, ``c``, ``rollout``, ``opponents``, ``final``)."""
    check_params("ismcts", params, PARAMETERS)
    time_ms: float | None = None
    if "ms" in params:
        time_ms = float_param(params, "ms", 0.0)
        if not 0 < time_ms <= MAX_TIME_MS:
            raise UnknownAgentError(
                f"agent parameter ms must be a positive number of milliseconds up to {MAX_TIME_MS:,.0f}, not {time_ms}"
            )
    iterations: int | None = int_param(params, "iterations", DEFAULT_ITERATIONS, maximum=MAX_ITERATIONS)
    if time_ms is not None and "iterations" not in params:
        iterations = None
    if time_ms is None and "iterations" not in params:
        time_ms = DEFAULT_TIME_CAP_MS
    exploration = float_param(params, "c", DEFAULT_EXPLORATION)
    if not exploration >= 0:
        raise UnknownAgentError(f"agent parameter c must be a number at least 0, not {exploration}")
    bias = float_param(params, "bias", DEFAULT_BIAS)
    if not bias >= 0:
        raise UnknownAgentError(f"agent parameter bias must be a number at least 0, not {bias}")
    rollout = choice_param(params, "rollout", "auto", ROLLOUT_POLICIES)
    rollout_policy(game, rollout)  # fails now, with a clear message, if the game has no heuristic
    return SearchSettings(
        iterations=iterations,
        time_ms=time_ms,
        exploration=exploration,
        rollout=rollout,
        opponents=choice_param(params, "opponents", "public", OPPONENT_MODELS),
        final=choice_param(params, "final", "best", FINAL_CHOICES),
        bias=bias,
        playouts=choice_param(params, "playouts", "auto", PLAYOUT_ENGINES),
    )


def _make(game: Game[Any, Any, Any], params: Mapping[str, str]) -> Agent:
    return IsmctsAgent(game, settings_from_params(game, params))


register_agent(
    "ismcts",
    _make,
    N_("information-set Monte Carlo tree search; iterations=N or ms=N, c=exploration, bias=heuristic prior, "
       "rollout=auto|random|heuristic, opponents=public|private, final=best|mix, playouts=auto|rules"),
)
