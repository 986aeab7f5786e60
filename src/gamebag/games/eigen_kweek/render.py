"""Text rendering of Eigen Kweek views (Rich markup), kept apart from the rules."""

from __future__ import annotations

from typing import Any

from gamebag.core.protocol import JsonDict

STEP_HELP = {
    "choose": "choose one of your two dealt character cards (the other goes back to the stack)",
    "window": "play your character card now, or pass",
    "ria_choice": "RIA: draw a card from the stack (you may), or take none",
    "ria_direction": "RIA: pass every card to the left (next seat) or to the right",
    "keun": "KEUN: take all weed tokens from one plant card",
    "griet": "GRIET: fill one of your plant cards",
    "rob": "PASTOOR: take a coin from an opponent",
    "bernard": "BERNARD: block an opponent for this cultivate phase",
    "bid": "bid weed tokens in a closed hand (at least one if you have any)",
    "corner": "choose a corner of the trading table and take its coins",
    "cultivate": "sow, harvest, plough over, or pass",
    "keep": "keep your unplayed character card for next round, or hand it in",
}


def _board(board: list[JsonDict]) -> str:
    parts = []
    for slot in board:
        if slot["status"] == "empty":
            parts.append(f"{slot['cost']}:-")
        elif slot["status"] == "sack":
            parts.append(f"{slot['cost']}:[bold]SACK[/bold]")
        else:
            parts.append(f"{slot['cost']}:{slot['tokens']}")
    return " ".join(parts)


def render_view(view: JsonDict) -> str:
    """The table as one player (or a spectator) sees it."""
    seat = view.get("seat")
    rules = view["rules"]
    lines = [
        f"[bold]Round {view['round']}[/bold] (cap {view['max_rounds']}) - phase: {view['phase']}, "
        f"step: {view['step']}",
        f"Pot: {view['pot']} weed tokens. Coin bag: {view['bag']['coins']} coin(s). "
        f"Trading table corners 1-4: {', '.join(str(c) for c in view['corners'])} coin(s) (face down)",
        "Plant cards (cost:tokens): capacity "
        + ", ".join(f"{c}:{rules['capacity'][c]}" for c in rules["capacity"])
        + "; plough over costs "
        + ", ".join(f"{c}:{rules['plough_cost'][c]}" for c in rules["plough_cost"]),
        "",
        "seat  coins  card  board (cost:tokens)",
    ]
    for info in view["table"]:
        card = "yes" if info["has_card"] else "-"
        if info["kept"]:
            card += " (kept)"
        marker = " (you)" if info["seat"] == seat else ""
        coins = str(info["coins"])
        if "coin_values" in info:
            coins += " " + "+".join(map(str, info["coin_values"]))
        lines.append(f"{info['seat']:>4}  {coins:>5}  {card:<4}  {_board(info['board'])}  "
                     f"sacks {info['sacks']}{marker}")
    if view["plays"]:
        lines.append("Played this round: " + "; ".join(_play(p) for p in view["plays"]))
    trade = view.get("trade")
    if trade:
        lines.append(f"Bids: {trade['bids']} counted as {trade['counts']}; choosing order: "
                     f"{trade['order']}; corners taken: {trade['corners_chosen']}")
    you: Any = view.get("you")
    if you:
        lines.append("")
        lines.append(
            f"[bold]You[/bold]: {you['tokens']} weed tokens"
            + (f" (+{you['sealed_bid']} in your closed hand)" if you["sealed_bid"] is not None else "")
            + f"; coins {'+'.join(map(str, you['coins'])) or 'none'} (value {you['coin_value']})"
            + f"; character: {you['card'] or 'none'}"
        )
        if you["dealt"]:
            lines.append(f"Dealt to you: {', '.join(you['dealt'])}")
        if you["ria_card"]:
            lines.append(f"RIA drew: {you['ria_card']}")
        if you["known_cards"]:
            lines.append("You know: " + ", ".join(f"seat {s} holds {c}" for s, c in you["known_cards"].items()))
        for note in you["notes"]:
            lines.append(f"  [dim]{note}[/dim]")
    if len(view["log"]) < 3 and view["last_round_log"]:
        lines.append("Last round: " + "; ".join(view["last_round_log"][-8:]))
    if view["log"]:
        lines.append("This round: " + "; ".join(view["log"][-8:]))
    if view["over"]:
        winners = ", ".join(f"seat {w}" for w in view["winners"])
        how = "four potato sacks" if view["ended_by"] == "four_sacks" else "the round cap (most sacks)"
        lines.append(f"[bold green]Game over ({how}). Winner(s): {winners}[/bold green]")
    elif seat is not None and seat in view["acting"] and view["step"] in STEP_HELP:
        lines.append(f"[bold]Your move:[/bold] {STEP_HELP[view['step']]}")
    return "\n".join(lines)


def _play(play: JsonDict) -> str:
    text = f"seat {play['seat']} {play['card']}"
    if play["card"] == "JULITA":
        text += f" blocking {play['target']}"
    elif play["card"] == "DEN OLLANDER":
        text += f" taking from seat {play['target']}"
    if play["blocked"]:
        text += " (blocked)"
    return text
