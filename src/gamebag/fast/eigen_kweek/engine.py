"""The Eigen Kweek fast engine: whole games, card records and search playouts.

Every option of ``games/eigen_kweek`` is a kernel parameter, as the game's engine declaration
says (``ENGINES`` in ``games/eigen_kweek/components.py``); an option value it does not declare
makes ``unsupported`` refuse with the declaration's one line, and the game plays on the rules engine.
Agents: ``random``, ``heuristic`` and ``heuristic:abstain=CARD[+CARD]`` (the card studies), and
``learned`` and ``learned:abstain=CARD[+CARD]`` where a learned policy ships for the
configuration (``gamebag.fast.weights``: the agents layer hands the engines its weights).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from gamebag.core.engines import engine_refusal
from gamebag.core.protocol import Game
from gamebag.fast.base import BatchResult, FastEngine, PreparedCache, StepBatch
from gamebag.fast.eigen_kweek import batch
from gamebag.fast.eigen_kweek.layout import (
    C_TRACK_KNOWLEDGE,
    CARD_NAMES,
    END_STEP_CAP,
    ENDED_BY_NAMES,
    MAX_DECISIONS,
    MAX_SEATS,
    POLICY_NAMES,
    WINNERS,
)
from gamebag.fast.eigen_kweek.learned import AGENT_NAMES, LEARNED_CODE, Net
from gamebag.fast.eigen_kweek.sampler import KweekSampler
from gamebag.fast.eigen_kweek.tables import kernel_tables, row_from_state
from gamebag.fast.rng import game_key, run_key
from gamebag.fast.weights import shipped_layers
from gamebag.games.eigen_kweek import EigenKweek, KweekState

# Rounds of per-round card records kept per game (games longer than this keep their first rounds).
RECORD_ROUNDS = 64
RECORD_KINDS = ("chose", "played", "blocked", "kept")
_BY_NAME = {name.casefold(): code for code, name in enumerate(CARD_NAMES)}


@dataclass(frozen=True)
class KweekBatchResult(BatchResult):
    """``BatchResult`` plus the cards of every round: ``cards[game, round - 1, kind, seat]``.

    Kinds (``RECORD_KINDS``): ``chose``, the card taken from the deal (-1: kept one or none);
    ``played`` and ``blocked``, bit masks of cards (bit ``CARD_NAMES.index(card)``);
    ``kept``, the card kept for the next round (-1: none). Rows past a game's length are 0.
    """

    cards: npt.NDArray[np.int16] = field(default_factory=lambda: np.zeros((0, RECORD_ROUNDS, 4, MAX_SEATS), np.int16))


def parse_agent(spec: str) -> tuple[int, int] | str:
    """``(policy code, abstain mask)`` of a compiled agent spec, or why there is none."""
    name, _, rest = spec.strip().partition(":")
    if name not in AGENT_NAMES:
        return (
            f"agent {spec.strip()!r} has no compiled policy "
            "(compiled: random, heuristic[:abstain=CARD+CARD], learned[:abstain=CARD+CARD] where a policy ships)"
        )
    code = AGENT_NAMES.index(name)
    mask = 0
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = part.partition("=")
        if name not in ("heuristic", "learned") or key.strip() != "abstain" or not sep:
            return f"agent {spec.strip()!r}: the compiled {name} takes no parameter {part!r}"
        for card in (c.strip() for c in value.split("+")):
            if card.casefold() not in _BY_NAME:
                return f"agent {spec.strip()!r}: {card!r} is not a character card"
            mask |= 1 << _BY_NAME[card.casefold()]
    return code, mask


Tables = tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]
LEARNED = LEARNED_CODE


class EigenKweekEngine(FastEngine):
    """The compiled Eigen Kweek engine."""

    game_id: ClassVar[str] = "eigen-kweek"

    def __init__(self) -> None:
        # Searches play out thousands of times per move, tournaments one game per call: the tables
        # are built once per game object.
        self._prepared: PreparedCache[Tables] = PreparedCache(8)
        # The shipped learned policy of each game object (or why there is none), read once.
        self._nets: PreparedCache[Net | str] = PreparedCache(8)

    def net(self, game: Game[Any, Any, Any]) -> Net | str:
        """The packed ``learned`` network of ``game``, or why none ships (one line)."""

        def load() -> Net | str:
            layers = shipped_layers(game)
            return layers if isinstance(layers, str) else Net.of(layers)

        net = self._nets.get(game, ("learned",), load)
        assert net is not None  # load never returns None
        return net

    def policies(self, game: Game[Any, Any, Any]) -> tuple[str, ...]:
        if game.game_id == self.game_id and not isinstance(self.net(game), str):
            return AGENT_NAMES
        return POLICY_NAMES

    def unsupported(self, game: Game[Any, Any, Any], agents: Sequence[str]) -> str | None:
        # The game's declaration (games/eigen_kweek/components.py ENGINES) says which options the
        # numba kernels play; any other option value is refused before any question of agents.
        if game.game_id != self.game_id:
            return f"this engine plays {self.game_id}, not {game.game_id}"
        refused = engine_refusal(game, self.engine_kind)
        if refused is not None:
            return refused
        for agent in agents:
            parsed = parse_agent(agent)
            if isinstance(parsed, str):
                return parsed
            if parsed[0] == LEARNED:
                net = self.net(game)
                if isinstance(net, str):
                    return f"agent 'learned' has no compiled policy here: {net}"
        return None

    def _net_arrays(self, game: Game[Any, Any, Any], codes: npt.NDArray[np.int64]) -> Net:
        """The network the kernels get: the shipped one where a seat is ``learned``, else a stand-in."""
        if np.any(codes == LEARNED):
            net = self.net(game)
            if isinstance(net, str):
                raise ValueError(f"agent 'learned' has no compiled policy here: {net}")
            return net
        return Net.none()

    def _tables(self, game: Game[Any, Any, Any]) -> Tables:
        """The kernels' tables of ``game``, built once per game object (tournaments play one game per call)."""
        tables = self._prepared.get(game, (), lambda: kernel_tables(game))
        assert tables is not None  # kernel_tables always returns its tables
        return tables

    @staticmethod
    def _whole_game_config(cfg: npt.NDArray[np.int64], codes: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """``cfg`` for kernels that play whole games: who knows which card is kept only for a
        ``learned`` seat (its observation reads it); no rule and no other policy does, so the
        games are the same either way (``tests/fast/test_kweek_knowledge.py``) and faster without."""
        if np.any(codes == LEARNED):
            return cfg
        quiet = cfg.copy()
        quiet[C_TRACK_KNOWLEDGE] = 0
        return quiet

    def _agents(self, agents: Sequence[str]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        codes = np.zeros(MAX_SEATS, np.int64)
        masks = np.zeros(MAX_SEATS, np.int64)
        for seat, agent in enumerate(agents):
            parsed = parse_agent(agent)
            if isinstance(parsed, str):
                raise ValueError(parsed)
            codes[seat], masks[seat] = parsed
        return codes, masks

    def play(
        self, game: Game[Any, Any, Any], agents: Sequence[str], seed: int | str, start: int, stop: int
    ) -> KweekBatchResult:
        self.check_batch(game, agents, start, stop)
        cfg, acts, pays = self._tables(game)
        codes, masks = self._agents(agents)
        count = stop - start
        n = game.num_players
        scores = np.zeros((count, n), np.int32)
        returns = np.zeros((count, n), np.float64)
        length = np.zeros(count, np.int32)
        ended_by = np.zeros(count, np.int8)
        cards = np.zeros((count, RECORD_ROUNDS, len(RECORD_KINDS), MAX_SEATS), np.int16)
        net = self._net_arrays(game, codes)
        batch.play_games(
            self._whole_game_config(cfg, codes), acts, pays, codes, masks, run_key(seed), start, scores, returns,
            length, ended_by, cards,
            net.values, net.shape,
        )  # fmt: skip
        if np.any(ended_by == END_STEP_CAP):
            raise RuntimeError(f"{game.game_id} did not end within {MAX_DECISIONS} decisions")
        return KweekBatchResult(
            start=start,
            scores=scores,
            returns=returns,
            length=length,
            ended_by=ended_by,
            first_player=np.zeros(count, np.int8),  # every step is simultaneous; seat 0 is first in seat order
            ended_by_names=ENDED_BY_NAMES,
            cards=cards[:, :, :, :n],
        )

    def playout(
        self, game: Game[Any, Any, Any], state: Any, agents: Sequence[str], seed: int
    ) -> tuple[float, ...] | None:
        if not isinstance(game, EigenKweek) or not isinstance(state, KweekState):
            return None
        if self.unsupported(game, agents) is not None or len(agents) != game.num_players:
            return None
        cfg, acts, pays = self._tables(game)
        codes, masks = self._agents(agents)
        row = row_from_state(game, state)
        key = np.uint64(game_key(np.uint64(seed & 0xFFFFFFFFFFFFFFFF), np.int64(0)))
        net = self._net_arrays(game, codes)
        quiet = self._whole_game_config(cfg, codes)
        if not batch.play_out(row, quiet, acts, pays, codes, masks, key, net.values, net.shape):
            raise RuntimeError(f"{game.game_id} did not end within {MAX_DECISIONS} decisions")
        winners = [(int(row[WINNERS]) >> p) & 1 for p in range(game.num_players)]
        total = sum(winners)
        return tuple(w / total for w in winners)

    def sampler(self, game: Game[Any, Any, Any], agents: Sequence[str]) -> KweekSampler | str:
        """Batched playouts from a seat's information set, redrawn in compiled code (``sampler``), or
        why not: an option value the numba engine does not declare, or an agent it does not compile."""
        refused = self.unsupported(game, agents)
        if refused is not None:
            return refused
        if not isinstance(game, EigenKweek):  # pragma: no cover - ``unsupported`` checked the game id
            return f"this engine plays {self.game_id}, not {game.game_id}"
        if len(agents) != game.num_players:
            return f"{game.game_id} with {game.num_players} players needs {game.num_players} agents, not {len(agents)}"
        cfg, acts, pays = self._tables(game)
        codes, masks = self._agents(agents)
        quiet = self._whole_game_config(cfg, codes)
        return KweekSampler(game, (cfg, acts, pays), quiet, codes, masks, self._net_arrays(game, codes))

    def step_batch(self, game: Game[Any, Any, Any], num_envs: int) -> StepBatch:
        from gamebag.fast.eigen_kweek.steps import KweekStepBatch

        return KweekStepBatch(game, num_envs, lambda: self.net(game))
