"""The home page's best score honours a game where the lowest score wins (Low Tide, a plugin)."""

from __future__ import annotations

from typing import Any

from low_tide_support import GAME_ID, low_tide_loaded

from gamebag.web.people.homepage import statistics


def _finished(game: str, place: int, score: float, won: bool) -> dict[str, Any]:
    return {"game": game, "place": place, "score": score, "won": won}


def test_best_score_is_the_lowest_where_the_lowest_wins() -> None:
    rows = [_finished(GAME_ID, 2, 12.0, False), _finished(GAME_ID, 1, 7.0, True), _finished(GAME_ID, 3, 30.0, False)]
    rows += [_finished("pig", 1, 100.0, True), _finished("pig", 2, 40.0, False)]
    with low_tide_loaded():
        stats = {row["game"]: row for row in statistics(rows)}
    assert stats[GAME_ID]["best_score"] == 7.0 and stats[GAME_ID]["lower_score_wins"]
    assert (stats[GAME_ID]["games"], stats[GAME_ID]["wins"], stats[GAME_ID]["average_place"]) == (3, 1, 2.0)
    assert stats["pig"]["best_score"] == 100.0 and not stats["pig"]["lower_score_wins"]
