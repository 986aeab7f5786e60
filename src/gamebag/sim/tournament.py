"""Tournaments: every pairing (or seat mix) of a field of agents, a win-rate matrix, ratings, a skill ladder.

* Matchups. With two players, every pair of distinct agents plays ``games``
  games, seats alternated. With N > 2 players, every seat mix (every multiset of
  N agents from the field holding at least two different agents) plays
  ``games`` games, its seat order rotated one step each game.
* Standing. A seat's standing is its share of the win, then its score in the game's
  direction (``Game.score_sign``: a lower score is better where the game says so); it
  ranks the seats of a game for the ratings and decides "ahead of" for the matrix.
* Win-rate matrix. Cell (i, j) is how often agent i finished ahead of agent j in
  the games where both played (ties count one half; when an agent fills several
  seats, a game counts once, as the mean over seat pairs), with a 95% Wilson
  interval over games. With two players it is i's share of the wins against j.
* Ratings: openskill (see ``gamebag.sim.ratings``), over every matchup game.
* Skill ladder: one agent whose budget (``iterations`` or ``ms``) doubles at each
  step, against each other agent of the field (with N > 2, against N - 1 copies),
  seats rotated; its share of the wins with 95% intervals.

Game ``k`` of a matchup draws all its randomness from
``derive_rng(seed, "matchup", <seat mix>, k)`` (ladder games from
``derive_rng(seed, "ladder", <budget>, <opponent>, k)``), so results do not
depend on the number of worker processes or on which matchups are run.

Engines: with ``engine="auto"`` a matchup whose agents all have compiled policies for
the game and its options plays on the fast engine (game ``k`` from the counter-based
generator keyed by ``("<seed>:matchup:<seat mix>", k)``), every other one on the rules
engine; ``"rules"`` and ``"fast"`` force one (``"fast"`` fails, naming why, where a
matchup cannot be compiled). The result says which ran. A matchup with ``learned`` seats
whose other agents are all compiled counts as compiled where a policy ships: it plays on the
step batch with the network's moves in NumPy (``gamebag.sim.stepped``), the games of each seat
rotation ``r`` together: game ``k`` is game ``k // N`` of the run seeded
``derive_seed(seed, "matchup", <seat mix>, "rotation", r)`` (``r = k mod N``).
"""

from __future__ import annotations

import math
import signal
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from itertools import combinations, combinations_with_replacement
from typing import Any

import gamebag
from gamebag.agents.registry import make_agent, parse_spec
from gamebag.core.errors import GamebagError, UnknownAgentError
from gamebag.core.i18n import number
from gamebag.core.protocol import Game
from gamebag.core.results import standing_keys
from gamebag.core.rng import derive_rng, derive_seed
from gamebag.fast import engine_for, unavailable_reason
from gamebag.sim.play import play_game
from gamebag.sim.ratings import RatedGame, Rating, rate_games
from gamebag.sim.stats import wilson_interval
from gamebag.sim.stepped import STEPPED, compiled_route, play_whole_games
from gamebag.sim.translation import N_, _, fmt, say

BUDGET_PARAMETERS = ("iterations", "ms")
DEFAULT_LADDER_START = 25
DEFAULT_LADDER_STEPS = 5
# Bounds of what one tournament may ask for, refused before any game (docs/designers.md lists them).
MAX_GAMES = 1_000_000  # games per matchup and per ladder point
MAX_LADDER_STEPS = 12  # budgets of the ladder: the start, doubled up to 11 times
MAX_AGENTS = 32
MAX_TOTAL_GAMES = 10_000_000  # matchup and ladder games together
CHUNK = 10  # games per unit of work
# Games per unit of work on the step batch, whose cost is mostly per step of the whole batch.
STEPPED_CHUNK = 2_000

Progress = Callable[[int], None]


@dataclass(frozen=True)
class TournamentSpec:
    """What to play. ``games`` is per matchup (pairing or seat mix) and per ladder point."""

    game: str
    players: int
    agents: tuple[str, ...]
    games: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    ladder: str | None = None
    ladder_steps: int = DEFAULT_LADDER_STEPS
    auto_ladder: bool = True  # with no ``ladder`` named, ladder the first agent that takes iterations


@dataclass(frozen=True)
class Rate:
    """A proportion with its 95% interval and the number of games behind it."""

    rate: float
    low: float
    high: float
    games: int

    @classmethod
    def of(cls, successes: float, games: int) -> Rate:
        low, high = wilson_interval(successes, games)
        return cls(successes / games if games else 0.0, low, high, games)

    def to_json(self) -> dict[str, Any]:
        return {"rate": self.rate, "ci95": [self.low, self.high], "games": self.games}


@dataclass(frozen=True)
class GameOutcome:
    """One finished game: the agent index in each seat and each seat's standing."""

    seats: tuple[int, ...]
    standing: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Ladder:
    """The skill ladder: ``rates[b][o]`` is the laddered agent's win share at budget ``b`` against ``field[o]``."""

    agent: str
    parameter: str
    budgets: tuple[float, ...]
    specs: tuple[str, ...]
    field: tuple[str, ...]
    rates: tuple[tuple[Rate, ...], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "parameter": self.parameter,
            "budgets": list(self.budgets),
            "specs": list(self.specs),
            "field": list(self.field),
            "win_share": [[cell.to_json() for cell in row] for row in self.rates],
        }


@dataclass
class TournamentResult:
    spec: TournamentSpec
    matchups: list[tuple[int, ...]]
    matrix: list[list[Rate | None]]
    ratings: list[Rating]
    ladder: Ladder | None
    seconds: float
    engine: str = "rules"  # "fast", "rules" or "mixed" (some matchups compiled, some not)
    engine_reason: str | None = None  # why some or all matchups played on the rules engine
    interrupted: bool = False  # Ctrl-C (or SIGTERM) stopped it: the figures cover the games that finished
    games_played: int = 0

    def to_json(self) -> dict[str, Any]:
        spec = self.spec
        names = spec.agents
        return {
            "game": spec.game,
            "players": spec.players,
            "options": spec.options,
            "seed": spec.seed,
            "games_per_matchup": spec.games,
            "agents": list(names),
            "matchups": [[names[a] for a in mix] for mix in self.matchups],
            "win_rate_matrix": [[cell.to_json() if cell else None for cell in row] for row in self.matrix],
            "win_rate_meaning": "row agent finishing ahead of column agent (share of the win, then score, "
            "lower first where the game's lowest score wins); "
            "ties count one half",
            "ratings": [r.to_json() for r in self.ratings],
            "ladder": self.ladder.to_json() if self.ladder else None,
            "seconds": self.seconds,
            "engine": self.engine,
            "engine_reason": self.engine_reason,
            "interrupted": self.interrupted,
            "games_played": self.games_played,
        }


# ---- validation and planning ------------------------------------------------------------------
def _budget_parameter(spec: str) -> tuple[str, str, dict[str, str]]:
    name, params = parse_spec(spec)
    present = [key for key in BUDGET_PARAMETERS if key in params]
    if len(present) != 1:
        raise GamebagError(
            _(
                "ladder agent {agent} must give exactly one budget to double, iterations=N or ms=N "
                "(for example ismcts:iterations={start})",
                agent=repr(spec),
                start=DEFAULT_LADDER_START,
            )
        )
    return name, present[0], params


def ladder_specs(spec: str, steps: int) -> tuple[str, tuple[float, ...], tuple[str, ...]]:
    """The parameter doubled, the budgets and the agent spec at each step of a ladder."""
    name, key, params = _budget_parameter(spec)
    try:
        start = float(params[key])
    except ValueError:
        raise GamebagError(
            _("ladder budget {key}={value} must be a number", key=key, value=repr(params[key]))
        ) from None
    budgets: list[float] = []
    specs: list[str] = []
    for step in range(steps):
        value = start * 2**step
        shown = str(int(value)) if key == "iterations" or value.is_integer() else f"{value:g}"
        budgets.append(float(shown))
        rest = [f"{k}={v}" for k, v in params.items() if k != key]
        specs.append(f"{name}:" + ",".join([*rest, f"{key}={shown}"]))
    return key, tuple(budgets), tuple(specs)


def default_ladder(game: Game[Any, Any, Any], agents: Sequence[str]) -> str | None:
    """The first agent of the field that takes an ``iterations`` budget, from a small start."""
    for spec in agents:
        name, params = parse_spec(spec)
        rest = [f"{k}={v}" for k, v in params.items() if k not in BUDGET_PARAMETERS]
        candidate = f"{name}:" + ",".join([*rest, f"iterations={DEFAULT_LADDER_START}"])
        try:
            make_agent(candidate, game)
        except UnknownAgentError:
            continue
        return candidate
    return None


def seat_mixes(agent_count: int, players: int) -> list[tuple[int, ...]]:
    """Every pairing (two players) or every seat mix with at least two different agents."""
    if players == 2:
        return list(combinations(range(agent_count), 2))
    return [mix for mix in combinations_with_replacement(range(agent_count), players) if len(set(mix)) > 1]


def validate(spec: TournamentSpec) -> Game[Any, Any, Any]:
    """Fail fast, before any game is played, on a bad game, option, agent or count (each within its bound)."""
    if not 1 <= spec.games <= MAX_GAMES:
        raise GamebagError(
            _(
                "--games must be from 1 to {most} per matchup, not {given}",
                most=number(MAX_GAMES),
                given=number(spec.games),
            )
        )
    if len(spec.agents) < 2:
        raise GamebagError(_("a tournament needs at least two agents, for example --agents random,heuristic"))
    if len(spec.agents) > MAX_AGENTS:
        raise GamebagError(
            _("a tournament takes at most {most} agents, not {count}", most=MAX_AGENTS, count=len(spec.agents))
        )
    if len(set(spec.agents)) != len(spec.agents):
        raise GamebagError(_("each agent may be named only once in --agents"))
    if not 1 <= spec.ladder_steps <= MAX_LADDER_STEPS:
        raise GamebagError(
            _(
                "--ladder-steps must be from 1 to {most}, not {given}",
                most=MAX_LADDER_STEPS,
                given=number(spec.ladder_steps),
            )
        )
    if spec.players < 2:
        raise GamebagError(
            _("agents can only be compared with at least 2 players per game, not {given}", given=spec.players)
        )
    game = gamebag.make(spec.game, spec.players, **spec.options)
    for name in spec.agents:
        make_agent(name, game)
    if spec.ladder is not None:
        for step_spec in ladder_specs(spec.ladder, spec.ladder_steps)[2]:
            make_agent(step_spec, game)
    total = planned_games(spec, game)
    if total > MAX_TOTAL_GAMES:
        raise GamebagError(
            _(
                "the tournament would play {total} games; at most {most} (fewer --games, agents, "
                "players or --ladder-steps)",
                total=number(total),
                most=number(MAX_TOTAL_GAMES),
            )
        )
    return game


def mix_count(agent_count: int, players: int) -> int:
    """``len(seat_mixes(agent_count, players))``, counted without listing them."""
    if players == 2:
        return math.comb(agent_count, 2)
    return math.comb(agent_count + players - 1, players) - agent_count


def planned_games(spec: TournamentSpec, game: Game[Any, Any, Any]) -> int:
    """How many games ``spec`` plays, matchups and ladder, worked out before any list of them is made."""
    total = mix_count(len(spec.agents), spec.players) * spec.games
    ladder_spec = spec.ladder
    if ladder_spec is None and spec.auto_ladder:
        ladder_spec = default_ladder(game, spec.agents)
    if ladder_spec is not None:
        total += spec.ladder_steps * len(ladder_field(spec.agents, ladder_spec)) * spec.games
    return total


# ---- playing ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Batch:
    """Games ``start .. stop - 1`` of one seating plan, by agent spec."""

    game: str
    players: int
    options: dict[str, Any]
    specs: tuple[str, ...]  # the agent spec of each entry of ``lineup``
    lineup: tuple[int, ...]  # index into ``specs`` for each seat, before rotation
    seed_path: tuple[str, ...]
    seed: int
    start: int
    stop: int
    engine: str = "rules"  # "fast": compiled kernels play the batch; "stepped": the step batch, learned seats
    fallback: bool = True  # whether a failing fast engine hands the batch to the rules engine


def standing(returns: Sequence[float], scores: Sequence[float], sign: int) -> tuple[tuple[float, float], ...]:
    """Each seat's standing key, higher is better: its share of the win, then its score turned by
    ``sign`` (the game's ``score_sign()``), so a lowest-score-wins game ranks low scores first."""
    return tuple(standing_keys(returns, scores, sign))


def _play_batch(batch: _Batch) -> tuple[list[GameOutcome], str | None]:
    """The batch's outcomes, and why the fast engine chosen for it failed (``None`` when it did not)."""
    if batch.engine in ("fast", STEPPED):
        try:
            return (_play_batch_stepped(batch) if batch.engine == STEPPED else _play_batch_fast(batch)), None
        except Exception as error:  # a broken compiler: the rules engine gives the right answer
            if not batch.fallback:
                raise
            failure = say(N_("the fast engine failed ({error})"), error=f"{type(error).__name__}: {error}")
            return _play_batch_rules(batch), failure
    return _play_batch_rules(batch), None


def _play_batch_fast(batch: _Batch) -> list[GameOutcome]:
    game = gamebag.make(batch.game, batch.players, **batch.options)
    fast = engine_for(game, batch.specs)
    if fast is None:
        raise GamebagError(
            _(
                "the fast engine cannot play {agents}: {reason}",
                agents=", ".join(batch.specs),
                reason=unavailable_reason(game, batch.specs),
            )
        )
    seed = ":".join([str(batch.seed), *batch.seed_path])
    out: list[GameOutcome] = []
    n = batch.players
    for k in range(batch.start, batch.stop):
        shift = k % n
        seats = tuple(batch.lineup[(seat + shift) % n] for seat in range(n))
        played = fast.play(game, [batch.specs[i] for i in seats], seed, k, k + 1)
        keys = standing(played.returns[0].tolist(), played.scores[0].tolist(), game.score_sign())
        out.append(GameOutcome(seats, keys))
    return out


def _play_batch_stepped(batch: _Batch) -> list[GameOutcome]:
    """``_play_batch_fast`` with ``learned`` seats: each seat rotation's games in one step batch."""
    game = gamebag.make(batch.game, batch.players, **batch.options)
    n = batch.players
    sign = game.score_sign()
    played: dict[int, GameOutcome] = {}
    for shift in range(n):
        first = batch.start + (shift - batch.start) % n  # the batch's first game of this rotation
        if first >= batch.stop:
            continue
        games = range(first, batch.stop, n)
        seats = tuple(batch.lineup[(seat + shift) % n] for seat in range(n))
        rows = play_whole_games(
            game,
            [batch.specs[i] for i in seats],
            derive_seed(batch.seed, *batch.seed_path, "rotation", shift),
            first // n,
            first // n + len(games),
        )
        for row, k in enumerate(games):
            played[k] = GameOutcome(seats, standing(rows.returns[row].tolist(), rows.scores[row].tolist(), sign))
    return [played[k] for k in range(batch.start, batch.stop)]


def _play_batch_rules(batch: _Batch) -> list[GameOutcome]:
    game = gamebag.make(batch.game, batch.players, **batch.options)
    agents = [make_agent(s, game) for s in batch.specs]
    out: list[GameOutcome] = []
    n = batch.players
    for k in range(batch.start, batch.stop):
        shift = k % n
        seats = tuple(batch.lineup[(seat + shift) % n] for seat in range(n))
        played = play_game(
            game, [agents[i] for i in seats], derive_rng(batch.seed, *batch.seed_path, k), keep_record=False
        )
        out.append(GameOutcome(seats, standing(played.returns, played.scores, game.score_sign())))
    return out


def _ignore_interrupts() -> None:
    # Ctrl-C goes to the main process, which stops and keeps the batches that finished.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_batches(
    batches: list[_Batch], workers: int, progress: Progress | None
) -> tuple[list[tuple[list[GameOutcome], str | None]], bool]:
    """Every batch's outcomes in order, and whether Ctrl-C stopped the run (unfinished batches are empty)."""
    results: list[tuple[list[GameOutcome], str | None]] = [([], None) for _batch in batches]
    if workers <= 1:
        try:
            for index, batch in enumerate(batches):
                results[index] = _play_batch(batch)
                if progress is not None:
                    progress(batch.stop - batch.start)
        except KeyboardInterrupt:
            return results, True
        return results, False
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)
    futures = [pool.submit(_play_batch, batch) for batch in batches]
    try:
        for index, (batch, future) in enumerate(zip(batches, futures, strict=True)):
            results[index] = future.result()
            if progress is not None:
                progress(batch.stop - batch.start)
    except KeyboardInterrupt:
        for index, future in enumerate(futures):
            if future.done() and not future.cancelled() and future.exception() is None:
                results[index] = future.result()
        pool.shutdown(wait=False, cancel_futures=True)
        return results, True
    pool.shutdown()
    return results, False


def _split(total: int, parts: int) -> list[tuple[int, int]]:
    """Game ranges: at least ``parts`` of them, none longer than ``CHUNK`` (for progress and workers)."""
    size = max(1, min(CHUNK, -(-total // max(1, parts))))
    return [(start, min(total, start + size)) for start in range(0, total, size)]


def _ahead(a: tuple[float, float], b: tuple[float, float]) -> float:
    return 1.0 if a > b else 0.5 if a == b else 0.0


def win_rate_matrix(agent_count: int, outcomes: Sequence[GameOutcome]) -> list[list[Rate | None]]:
    """Cell (i, j): how often i finished ahead of j in games with both (ties one half)."""
    ahead = [[0.0] * agent_count for _row in range(agent_count)]
    together = [[0] * agent_count for _row in range(agent_count)]
    for outcome in outcomes:
        present = sorted(set(outcome.seats))
        for i in present:
            for j in present:
                if i == j:
                    continue
                pairs = [
                    _ahead(outcome.standing[si], outcome.standing[sj])
                    for si, ai in enumerate(outcome.seats)
                    if ai == i
                    for sj, aj in enumerate(outcome.seats)
                    if aj == j
                ]
                ahead[i][j] += sum(pairs) / len(pairs)
                together[i][j] += 1
    return [
        [Rate.of(ahead[i][j], together[i][j]) if together[i][j] else None for j in range(agent_count)]
        for i in range(agent_count)
    ]


ENGINES = ("auto", "rules", "fast")


def _engine_of(game: Game[Any, Any, Any], specs: Sequence[str], requested: str) -> tuple[str, str | None]:
    """("fast", "stepped" or "rules", why not compiled) for a batch of ``specs`` under ``requested``."""
    if requested == "rules":
        return "rules", None
    route, reason = compiled_route(game, specs)
    if route is not None:
        return ("fast" if route != STEPPED else STEPPED), None
    if requested == "fast":
        raise GamebagError(
            _(
                "the fast engine cannot play {agents}: {reason}; use --engine rules or auto",
                agents=", ".join(specs),
                reason=reason,
            )
        )
    return "rules", reason


def _with_engine(
    batches: list[_Batch], game: Game[Any, Any, Any], requested: str, stepped_size: int = STEPPED_CHUNK
) -> tuple[list[_Batch], list[str]]:
    """The batches with their engines, and why any is not compiled. Consecutive step-batch pieces of one
    seating plan are joined up to ``stepped_size`` games (the step batch pays per step, not per game)."""
    reasons: list[str] = []
    out: list[_Batch] = []
    for batch in batches:
        engine, reason = _engine_of(game, batch.specs, requested)
        if reason is not None and reason not in reasons:
            reasons.append(reason)
        batch = replace(batch, engine=engine, fallback=requested == "auto")
        last = out[-1] if out else None
        if (
            last is not None
            and engine == STEPPED
            and replace(last, start=batch.start, stop=batch.stop) == batch
            and last.stop == batch.start
            and batch.stop - last.start <= stepped_size
        ):
            out[-1] = replace(last, stop=batch.stop)
        else:
            out.append(batch)
    return out, reasons


def plan(
    spec: TournamentSpec, game: Game[Any, Any, Any], workers: int = 1
) -> tuple[list[tuple[int, ...]], list[_Batch], str | None, list[_Batch]]:
    """The seat mixes, the matchup batches, the ladder agent and the ladder batches (on the rules engine)."""
    mixes = seat_mixes(len(spec.agents), spec.players)
    per_mix = max(1, workers // max(1, len(mixes)))
    matchups = [
        _Batch(
            spec.game,
            spec.players,
            spec.options,
            tuple(spec.agents[a] for a in mix),
            tuple(range(spec.players)),
            ("matchup", "|".join(spec.agents[a] for a in mix)),
            spec.seed,
            start,
            stop,
        )
        for mix in mixes
        for start, stop in _split(spec.games, per_mix)
    ]
    ladder_batches: list[_Batch] = []
    ladder_spec = spec.ladder
    if ladder_spec is None and spec.auto_ladder:
        ladder_spec = default_ladder(game, spec.agents)
    if ladder_spec is not None:
        _start, budgets, specs = ladder_specs(ladder_spec, spec.ladder_steps)
        lineup = (0,) + (1,) * (spec.players - 1)
        for budget, step_spec in zip(budgets, specs, strict=True):
            for opponent in ladder_field(spec.agents, ladder_spec):
                for start, stop in _split(spec.games, per_mix):
                    ladder_batches.append(
                        _Batch(
                            spec.game,
                            spec.players,
                            spec.options,
                            (step_spec, opponent),
                            lineup,
                            ("ladder", f"{budget:g}", opponent),
                            spec.seed,
                            start,
                            stop,
                        )
                    )
    return mixes, matchups, ladder_spec, ladder_batches


def ladder_field(agents: Sequence[str], ladder_spec: str) -> list[str]:
    """The fixed field a ladder plays: every agent of another kind than the laddered one."""
    ladder_name = parse_spec(ladder_spec)[0]
    others = [a for a in agents if parse_spec(a)[0] != ladder_name]
    return others or [a for a in agents if a != ladder_spec]


# A run whose solving agents are expected to take longer than this is announced with an estimate.
LONG_RUN_SECONDS = 60.0
SOLVING_AGENT = "equilibrium"  # solves each new round it meets (timed on the machine for the estimate)


def long_run_warning(spec: TournamentSpec, game: Game[Any, Any, Any], workers: int = 1) -> str | None:
    """A warning, before any game, when the games with the equilibrium agent will take long (with an
    estimate: its rounds per game times this machine's time to solve one); ``None`` otherwise."""
    _plan, matchups, _mixes, ladder = plan(spec, game, workers)
    batches = [b for b in matchups + ladder if any(parse_spec(s)[0] == SOLVING_AGENT for s in b.specs)]
    games = sum(b.stop - b.start for b in batches)
    if games == 0:
        return None
    from gamebag.agents.equilibrium.agent import ROUNDS_PER_GAME, seconds_per_round

    per_round = seconds_per_round(game)
    seconds = games * ROUNDS_PER_GAME * per_round / max(1, min(workers, len(batches)))
    if seconds < LONG_RUN_SECONDS:
        return None
    return _(
        "the {agent} agent solves each new round it meets ({seconds} s a round here): its {games} games may take "
        "about {duration}; fewer --games or more --workers shorten that",
        agent=SOLVING_AGENT,
        seconds=fmt(per_round, ".1f"),
        games=number(games),
        duration=_duration(seconds),
    )


def _duration(seconds: float) -> str:
    if seconds < 3600:
        return _("{minutes} minutes", minutes=fmt(seconds / 60, ".0f"))
    return _("{hours} hours", hours=fmt(seconds / 3600, ".1f"))


def total_games(spec: TournamentSpec) -> int:
    """How many games the tournament plays (for progress bars)."""
    _plan, matchups, _mixes, ladder = plan(spec, validate(spec))
    return sum(b.stop - b.start for b in matchups + ladder)


def run_tournament(
    spec: TournamentSpec, workers: int = 1, progress: Progress | None = None, engine: str = "auto"
) -> TournamentResult:
    """Play every matchup and the ladder, then compute the matrix, ratings and ladder rates."""
    started = time.perf_counter()
    if engine not in ENGINES:
        raise GamebagError(
            _("--engine must be one of {choices}, not {given}", choices=", ".join(ENGINES), given=repr(engine))
        )
    game = validate(spec)
    mixes, matchup_batches, ladder_spec, ladder_batches = plan(spec, game, workers)
    # Step-batch pieces as large as leaves every worker a share of each mix.
    stepped_size = min(STEPPED_CHUNK, -(-spec.games // max(1, workers // max(1, len(mixes)))))
    matchup_batches, reasons = _with_engine(matchup_batches, game, engine, stepped_size)
    ladder_batches, ladder_reasons = _with_engine(ladder_batches, game, engine, stepped_size)
    reasons += [r for r in ladder_reasons if r not in reasons]
    played, interrupted = _run_batches(matchup_batches + ladder_batches, workers, progress)
    results = [outcomes for outcomes, _reason in played]
    # A batch whose fast engine failed was played on the rules engine: say so, once per reason.
    engines = set()
    for batch, (_outcomes, failure) in zip(matchup_batches + ladder_batches, played, strict=True):
        engines.add("rules" if failure is not None else "fast" if batch.engine == STEPPED else batch.engine)
        if failure is not None and failure not in reasons:
            reasons.append(failure)
    # Batches hold the games of each mix in order, so the order of rating updates is fixed.
    outcomes = [
        GameOutcome(tuple(spec.agents.index(batch.specs[i]) for i in outcome.seats), outcome.standing)
        for batch, batch_outcomes in zip(matchup_batches, results, strict=False)
        for outcome in batch_outcomes
    ]
    ladder = None
    if ladder_spec is not None and ladder_batches:
        ladder = _ladder_result(spec, ladder_spec, ladder_batches, results[len(matchup_batches) :])
    return TournamentResult(
        spec=spec,
        matchups=mixes,
        matrix=win_rate_matrix(len(spec.agents), outcomes),
        ratings=rate_games(spec.agents, (RatedGame(o.seats, o.standing) for o in outcomes)),
        ladder=ladder,
        seconds=time.perf_counter() - started,
        engine=engines.pop() if len(engines) == 1 else "mixed",
        engine_reason="; ".join(reasons) or None,
        interrupted=interrupted,
        games_played=sum(len(outcomes) for outcomes in results),
    )


def _ladder_result(
    spec: TournamentSpec, ladder_spec: str, batches: list[_Batch], results: list[list[GameOutcome]]
) -> Ladder:
    key, budgets, specs = ladder_specs(ladder_spec, spec.ladder_steps)
    opponents = ladder_field(spec.agents, ladder_spec)
    wins: dict[tuple[str, str], list[float]] = {}
    for batch, outcomes in zip(batches, results, strict=True):
        bucket = wins.setdefault((batch.specs[0], batch.specs[1]), [0.0, 0.0])
        for outcome in outcomes:
            seat = outcome.seats.index(0)
            bucket[0] += outcome.standing[seat][0]
            bucket[1] += 1
    rates = tuple(
        tuple(Rate.of(wins[(step, opp)][0], int(wins[(step, opp)][1])) for opp in opponents) for step in specs
    )
    return Ladder(
        agent=parse_spec(ladder_spec)[0],
        parameter=key,
        budgets=budgets,
        specs=specs,
        field=tuple(opponents),
        rates=rates,
    )
