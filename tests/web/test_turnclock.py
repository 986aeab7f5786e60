"""The arithmetic of a seat's time bank (``turnclock.py``): settling, vacations, increments, and
forfeited seats placed last."""

from __future__ import annotations

import pytest

from gamebag.web.tables.turnclock import SeatBank, after_change, forced_places

HOUR = 3600.0


def test_a_running_bank_drains_and_a_stopped_one_does_not() -> None:
    bank = SeatBank(0, bank=10 * HOUR, since=1000.0, running=True)
    assert bank.deadline() == 1000.0 + 10 * HOUR
    assert bank.settled(1000.0 + 4 * HOUR).bank == pytest.approx(6 * HOUR)
    assert bank.settled(1000.0 + 40 * HOUR).bank == 0.0
    stopped = SeatBank(0, bank=10 * HOUR, since=1000.0)
    assert stopped.settled(1000.0 + 40 * HOUR).bank == 10 * HOUR and stopped.deadline() is None


def test_a_vacation_spends_its_allowance_first_then_ends_by_itself() -> None:
    bank = SeatBank(0, bank=10 * HOUR, since=0.0, running=True, vacation_left=24 * HOUR, on_vacation=True)
    assert bank.deadline() == 34 * HOUR and bank.vacation_until() == 24 * HOUR
    later = bank.settled(30 * HOUR)
    assert later.on_vacation is False and later.vacation_left == 0.0 and later.bank == pytest.approx(4 * HOUR)
    assert later.deadline() == pytest.approx(bank.deadline())  # settling never moves a deadline


def test_a_move_stops_the_mover_with_its_increment_and_starts_the_next() -> None:
    banks = {0: SeatBank(0, 5 * HOUR, 0.0, running=True), 1: SeatBank(1, 5 * HOUR, 0.0)}
    changed = after_change(banks, 2 * HOUR, waiting={1}, moved=0, increment=HOUR)
    assert changed[0].bank == pytest.approx(4 * HOUR) and not changed[0].running
    assert changed[1].running and changed[1].bank == 5 * HOUR and changed[1].since == 2 * HOUR
    # a seat that changes a secret choice while not running gets no second increment
    assert after_change({0: changed[0]}, 3 * HOUR, waiting=set(), moved=0, increment=HOUR) == {}


def test_forfeited_seats_are_placed_last_and_the_others_keep_their_order() -> None:
    assert forced_places([1, 2, 3], {0}) == [3, 1, 2]
    assert forced_places([2, 1, 2, 4], {1}) == [1, 4, 1, 3]
    assert forced_places([1, 1, 3], {0, 1}) == [2, 2, 1]
