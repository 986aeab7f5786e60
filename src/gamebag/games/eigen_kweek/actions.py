"""Eigen Kweek actions: short strings that are both the action and its record encoding.

Every action of a configuration is listed once by ``action_catalogue`` (this is
``all_actions()``), parsed once into a ``Move``. The strings are what records
hold and what a person types (see ``docs/records.md``):

``choose:KEUN`` ``pass`` ``play:KEUN`` ``block:KEUN`` ``take:2`` ``ria:draw`` ``ria:skip`` ``ria:left``
``keun:1:6`` ``griet:4`` ``rob:2`` (``rob:2:3`` with open coins) ``bernard:1``
``bid:5`` ``corner:3`` ``sow:6:3+3`` ``plough:8:2+2`` ``harvest:4``
``harvest_all`` ``keep`` ``hand_in``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from gamebag.games.eigen_kweek.components import (
    CARDS,
    CORNERS,
    JULITA,
    PLAIN_CARDS,
    PLANT_COSTS,
    TOTAL_TOKENS,
    Config,
    minimal_payments,
    payment_text,
)


@dataclass(frozen=True, slots=True)
class Move:
    """A parsed action. Unused fields are ``None``."""

    kind: str
    text: str = ""  # the action string itself
    card: str | None = None
    seat: int | None = None
    cost: int | None = None
    number: int | None = None  # bid size, corner (0-3), coin value, direction (+1 left, -1 right)
    payment: tuple[int, ...] | None = None


def action_catalogue(config: Config) -> dict[str, Move]:
    """Every action of ``config`` in a fixed order, with its parsed form."""
    n = config.players
    catalogue: dict[str, Move] = {}
    for card in CARDS:
        catalogue[f"choose:{card}"] = Move("choose", card=card)
    catalogue["pass"] = Move("pass")
    for card in PLAIN_CARDS:
        catalogue[f"play:{card}"] = Move("play", card=card)
    for card in CARDS:
        if card != JULITA:
            catalogue[f"block:{card}"] = Move("block", card=card)
    for seat in range(n):
        catalogue[f"take:{seat}"] = Move("take", seat=seat)
    catalogue["ria:draw"] = Move("ria_draw")
    catalogue["ria:skip"] = Move("ria_skip")
    catalogue["ria:left"] = Move("ria", number=1)
    catalogue["ria:right"] = Move("ria", number=-1)
    for seat in range(n):
        for cost in PLANT_COSTS:
            catalogue[f"keun:{seat}:{cost}"] = Move("keun", seat=seat, cost=cost)
    for cost in PLANT_COSTS:
        catalogue[f"griet:{cost}"] = Move("griet", cost=cost)
    for seat in range(n):
        if config.open_coins:
            for value in config.values:
                catalogue[f"rob:{seat}:{value}"] = Move("rob", seat=seat, number=value)
        else:
            catalogue[f"rob:{seat}"] = Move("rob", seat=seat)
    for seat in range(n):
        catalogue[f"bernard:{seat}"] = Move("bernard", seat=seat)
    for size in range(TOTAL_TOKENS + 1):
        catalogue[f"bid:{size}"] = Move("bid", number=size)
    for corner in range(CORNERS):
        catalogue[f"corner:{corner + 1}"] = Move("corner", number=corner)
    for kind in ("sow", "plough"):
        for cost in PLANT_COSTS:
            payments: list[tuple[int, ...]] = []
            for price in config.prices(kind, cost):
                payments.extend(m for m in minimal_payments(price, config.values) if m not in payments)
            for payment in payments:
                text = f"{kind}:{cost}:{payment_text(payment, config.values)}"
                catalogue[text] = Move(kind, cost=cost, payment=payment)
    for cost in PLANT_COSTS:
        catalogue[f"harvest:{cost}"] = Move("harvest", cost=cost)
    catalogue["harvest_all"] = Move("harvest_all")
    catalogue["keep"] = Move("keep")
    catalogue["hand_in"] = Move("hand_in")
    return {text: replace(move, text=text) for text, move in catalogue.items()}


def describe_action_forms() -> str:
    """The action forms, for error messages."""
    return (
        "choose:CARD, pass, play:CARD, block:CARD, take:SEAT, ria:draw|skip, ria:left|right, keun:SEAT:COST, "
        "griet:COST, rob:SEAT[:VALUE], bernard:SEAT, bid:N, corner:1-4, sow:COST:PAYMENT, "
        "plough:COST:PAYMENT, harvest:COST, harvest_all, keep, hand_in"
    )
