"""How Eigen Kweek's component defaults were chosen, reproducibly.

The rulebook leaves three sets of numbers printed on the components: the coin
values, how many weed tokens each plant card holds and what ploughing it over
costs. rulings.md asks for defaults that make a 4-player game between sensible
bots last about 10-15 rounds without any single character card deciding games.

Every game here is the ``heuristic`` agent against itself through ``play_game``,
one generator per game from ``derive_rng(seed, stage, configuration, players, game)``:

1. ``grid``: every candidate configuration at 4 players: mean and median rounds
   and how many games hit the round cap. The default is the candidate whose
   mean length is nearest 12.5 rounds (the middle of 10-15) with no capped game.
2. ``report``: the chosen configuration at 2, 3 and 4 players: game length,
   seat win shares, and per character the win share of the players who played
   it unblocked at least once in a game (observational: bots play some cards
   only when ahead, e.g. JOS needs several loaded plant cards).
3. ``ablation``: the causal measure of each character's effect on the win rate:
   one seat (rotating) never chooses, plays or keeps that card, the others play
   normally; its win share against the fair share 1/players. A card "decides
   games" if giving it up costs a lot; the script flags a loss over 10 points.

Run: ``.venv/bin/python bench/tune_eigen_kweek.py`` (all three stages, about 15, 3
and 7 minutes on a busy 2-core machine; ``--stage`` runs one; ``--stage report`` and
``--stage ablation`` use the current defaults, while ``all`` runs them on the grid's
pick).
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import gamebag
from gamebag.agents.base import Agent
from gamebag.agents.heuristics.eigen_kweek import EigenKweekHeuristic
from gamebag.agents.registry import make_agent
from gamebag.core.protocol import Game
from gamebag.core.records import apply_event
from gamebag.core.rng import derive_rng
from gamebag.sim.play import play_game

GAME_ID = "eigen-kweek"
CARDS = (
    "RIA",
    "KEUN",
    "FLUPPE",
    "GRIET",
    "PASTOOR",
    "STEVEN",
    "CHANTAL",
    "LUCIEN",
    "STEFAAN",
    "FRANK",
    "BERNARD",
    "JOS",
    "JULITA",
    "DEN OLLANDER",
)
COIN_SETS: dict[str, dict[str, int]] = {
    "1x12 2x14 3x9": {"coins_worth_1": 12, "coins_worth_2": 14, "coins_worth_3": 9},
    "1x15 2x15 3x5": {"coins_worth_1": 15, "coins_worth_2": 15, "coins_worth_3": 5},
    "1x10 2x10 3x10 5x5": {"coins_worth_1": 10, "coins_worth_2": 10, "coins_worth_3": 10, "coins_worth_5": 5},
    "1x20 2x10 5x5": {"coins_worth_1": 20, "coins_worth_2": 10, "coins_worth_5": 5},
}
CAPACITY_SETS: dict[str, tuple[int, int, int, int]] = {
    "3/3/6/9": (3, 3, 6, 9),
    "3/4/6/9": (3, 4, 6, 9),
    "4/4/8/12": (4, 4, 8, 12),
}
PLOUGH_SETS: dict[str, tuple[int, int, int, int]] = {
    "1/2/3/4": (1, 2, 3, 4),
    "2/3/4/5": (2, 3, 4, 5),
    "2/4/6/8": (2, 4, 6, 8),
}
TARGET_ROUNDS = 12.5
DECIDES_GAMES = 0.10  # a win-share loss, for a player giving the card up, that would be too much
COSTS = (2, 4, 6, 8)


def options_for(coins: str, capacity: str, plough: str) -> dict[str, int]:
    options = {f"coins_worth_{v}": 0 for v in (1, 2, 3, 4, 5)}
    options.update(COIN_SETS[coins])
    for cost, cap, price in zip(COSTS, CAPACITY_SETS[capacity], PLOUGH_SETS[plough], strict=True):
        options[f"capacity_{cost}"] = cap
        options[f"plough_cost_{cost}"] = price
    return options


@dataclass
class Summary:
    """Figures of one configuration at one player count."""

    players: int
    games: int = 0
    rounds: list[int] = field(default_factory=list)
    capped: int = 0
    seat_wins: list[float] = field(default_factory=list)
    card_games: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    card_wins: dict[str, float] = field(default_factory=lambda: defaultdict(float))


def play_many(
    options: dict[str, Any], players: int, games: int, seed: int, label: str, track_cards: bool = False
) -> Summary:
    game = gamebag.make(GAME_ID, players, **options)
    agents = [make_agent("heuristic", game) for _ in range(players)]
    summary = Summary(players, seat_wins=[0.0] * players)
    for index in range(games):
        result = play_game(game, agents, derive_rng(seed, label, players, index), keep_record=track_cards)
        summary.games += 1
        summary.rounds.append(result.rounds)
        summary.capped += result.state.ended_by == "round_cap"
        share = {w: 1.0 / len(result.winners) for w in result.winners}
        for seat in range(players):
            summary.seat_wins[seat] += share.get(seat, 0.0)
        if result.record is not None:
            for seat, cards in enumerate(_unblocked_plays(game, result.record.events)):
                for card in cards:
                    summary.card_games[card] += 1
                    summary.card_wins[card] += share.get(seat, 0.0)
    return summary


def _unblocked_plays(game: Game[Any, Any, Any], events: list[dict[str, Any]]) -> list[set[str]]:
    """Replay a record; per seat, the cards it played that were still unblocked at round end."""
    latest: dict[int, tuple[Any, ...]] = {}
    state = game.initial_state()
    for event in events:
        state = apply_event(game, state, event)
        if state.plays:
            latest[state.round_no] = state.plays
    played: list[set[str]] = [set() for _ in range(game.num_players)]
    for plays in latest.values():
        for play in plays:
            if not play.blocked:
                played[play.seat].add(play.card)
    return played


def grid(games: int, seed: int) -> dict[str, int]:
    print(f"## Grid: 4 players, {games} heuristic games per configuration\n")
    print("| coins | capacity 2/4/6/8 | plough over 2/4/6/8 | mean rounds | median | capped |")
    print("|---|---|---|---|---|---|")
    rows = []
    for coins, capacity, plough in itertools.product(COIN_SETS, CAPACITY_SETS, PLOUGH_SETS):
        summary = play_many(options_for(coins, capacity, plough), 4, games, seed, f"{coins}|{capacity}|{plough}")
        mean = statistics.mean(summary.rounds)
        rows.append((abs(mean - TARGET_ROUNDS), summary.capped, coins, capacity, plough, mean))
        print(
            f"| {coins} | {capacity} | {plough} | {mean:.1f} | {statistics.median(summary.rounds):g} | "
            f"{summary.capped} |",
            flush=True,
        )
    uncapped = [row for row in rows if row[1] == 0] or rows
    _, _, coins, capacity, plough, mean = min(uncapped)
    print(f"\nChosen: coins {coins}, capacity {capacity}, plough over {plough} (mean {mean:.1f} rounds)\n")
    return options_for(coins, capacity, plough)


def report(options: dict[str, Any], games: int, seed: int) -> None:
    summaries = {n: play_many(options, n, games, seed, "report", track_cards=True) for n in (2, 3, 4)}
    print(f"## Game length, {games} heuristic games per player count\n")
    print("| players | mean rounds | median | 10th-90th percentile | capped | seat win shares |")
    print("|---|---|---|---|---|---|")
    for n, s in summaries.items():
        deciles = statistics.quantiles(s.rounds, n=10)
        shares = ", ".join(f"{w / s.games:.2f}" for w in s.seat_wins)
        print(
            f"| {n} | {statistics.mean(s.rounds):.1f} | {statistics.median(s.rounds):g} | "
            f"{deciles[0]:g}-{deciles[-1]:g} | {s.capped} | {shares} |"
        )
    print("\n## Characters played: win share of players who played the card unblocked in a game\n")
    print("| card | " + " | ".join(f"{n} players (player-games)" for n in summaries) + " |")
    print("|---|" + "---|" * len(summaries))
    for card in CARDS:
        cells = []
        for n, s in summaries.items():
            count = s.card_games[card]
            cells.append(f"{s.card_wins[card] / count:.2f} of {1 / n:.2f} ({count})" if count else "-")
        print(f"| {card} | " + " | ".join(cells) + " |")


def ablation(options: dict[str, Any], games: int, seed: int, player_counts: tuple[int, ...]) -> None:
    print(f"\n## Ablation: win share of one seat that never uses the card ({games} games per cell)\n")
    print("| card | " + " | ".join(f"{n} players (fair {1 / n:.2f})" for n in player_counts) + " |")
    print("|---|" + "---|" * len(player_counts))
    flagged = []
    for card in CARDS:
        cells = []
        for n in player_counts:
            game = gamebag.make(GAME_ID, n, **options)
            wins = 0.0
            for index in range(games):
                abstainer = index % n
                agents: list[Agent] = [
                    EigenKweekHeuristic(frozenset({card})) if seat == abstainer else make_agent("heuristic", game)
                    for seat in range(n)
                ]
                result = play_game(game, agents, derive_rng(seed, "ablation", card, n, index), keep_record=False)
                if abstainer in result.winners:
                    wins += 1.0 / len(result.winners)
            share = wins / games
            error = (share * (1 - share) / games) ** 0.5
            cells.append(f"{share:.3f} +- {1.96 * error:.3f}")
            if 1 / n - share > DECIDES_GAMES:
                flagged.append(f"{card} at {n} players")
        print(f"| {card} | " + " | ".join(cells) + " |", flush=True)
    print(
        "\nCards that decide games (giving one up costs over 10 points of win share): "
        + (", ".join(flagged) if flagged else "none")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--stage", choices=("all", "grid", "report", "ablation"), default="all")
    parser.add_argument("--grid-games", type=int, default=50, help="games per grid configuration")
    parser.add_argument("--report-games", type=int, default=300, help="games per player count in the report")
    parser.add_argument("--ablation-games", type=int, default=150, help="games per card and player count")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    started = time.perf_counter()
    options: dict[str, Any] = {}
    if args.stage in ("all", "grid"):
        options = grid(args.grid_games, args.seed)
    if args.stage in ("all", "report"):
        report(options, args.report_games, args.seed)
    if args.stage in ("all", "ablation"):
        ablation(options, args.ablation_games, args.seed, (2, 4))
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
