"""The names of Eigen Kweek's phases and steps (the nodes of a round).

Both are ``StrEnum`` members, so a state's ``phase`` and ``step`` compare equal
to their plain names ("trade", "bid") and appear as those names in views and
records; the one table in ``steps.py`` says what each step does.
"""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """The phases of a round (the rulebook's five, plus setup and the end)."""

    SETUP = "setup"
    DEAL = "deal"  # Deal Characters
    GROWTH = "growth"
    TRADE = "trade"
    CULTIVATE = "cultivate"
    HAND_IN = "hand_in"  # Hand In Characters
    OVER = "over"


class Step(StrEnum):
    """What the game waits for: a chance event, a choice by some players, or nothing (over)."""

    # chance
    REFILL = "refill"  # one coin from the bag onto the next corner
    DEAL = "deal"  # one character card to the next player
    RIA_DRAW = "ria_draw"  # RIA's card from the stack
    ROB_DRAW = "rob_draw"  # PASTOOR's coin from the victim, face down
    LUCIEN_DRAW = "lucien_draw"  # LUCIEN's coin from the bag
    # everyone concerned at once
    CHOOSE = "choose"  # keep one of the two dealt cards
    WINDOW = "window"  # play, pass, block or take
    BID = "bid"  # sealed bids
    CULTIVATE = "cultivate"  # sow, harvest, plough over or pass
    KEEP = "keep"  # keep the unplayed card or hand it in
    # one player, in the open
    RIA_CHOICE = "ria_choice"  # RIA: take a card from the stack or not
    RIA_DIRECTION = "ria_direction"  # RIA: left or right
    KEUN = "keun"  # a played card names its target
    GRIET = "griet"
    ROB = "rob"  # PASTOOR
    BERNARD = "bernard"
    CORNER = "corner"  # choose a corner of the trading table
    OVER = "over"
