"""Text rendering of Eigen Kweek views (Rich markup), kept apart from the rules.

``render_view`` draws the table (seats written ``seat N``: the terminal puts its seat names in
their place); ``narrate`` tells a seat what happened between
two of its views (the public log and its private notes, with the text of every
character card it is dealt); ``action_words`` and ``decision_help`` put choices
and decisions in plain words for the terminal.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from gamebag.core.protocol import JsonDict
from gamebag.core.words import counted
from gamebag.games.eigen_kweek.characters import describe_target
from gamebag.games.eigen_kweek.components import CARD_PHASE, CARD_TEXT

SEAT_COLUMN = 8  # wide enough for the terminal's seat names ("Player 8")

# The rulebook's names of the phases.
PHASE_NAMES = {
    "deal": "Deal Characters",
    "growth": "Growth",
    "trade": "Trade",
    "cultivate": "Cultivate",
    "hand_in": "Hand In Characters",
}

# What the table waits for, in words (the page's "phase: step" line says the same).
STEP_WORDS = {
    "choose": "everyone picks a character in secret", "window": "characters may be played now",
    "bid": "secret bids", "corner": "taking corners in bid order",
    "ria_choice": "RIA may draw a card from the stack", "ria_draw": "RIA draws a card",
    "ria_direction": "RIA passes the cards", "keep": "keep your character or hand it in",
    "keun": "KEUN picks a plant card", "griet": "GRIET fills a plant card", "rob": "PASTOOR picks an opponent",
    "rob_draw": "PASTOOR takes a coin", "lucien_draw": "LUCIEN draws a coin from the bag",
    "bernard": "BERNARD picks a target", "cultivate": "each player sows, ploughs or harvests",
    "refill": "coins go onto the trading table", "deal": "character cards are dealt",
}

# The public log's lines that speak the engine's language, rewritten for players (the page does the same).
_PHASE_LINES = {
    "Deal Characters": "Deal characters: everyone is dealt character cards.",
    "Growth": "Growth: the plants grow.",
    "Trade": "Trading: everyone bids weed tokens for the coins on the trading table.",
    "Cultivate": "Sow, plough and harvest.",
    "Hand In Characters": "Keep or hand in characters.",
}
_LOG_REWRITES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (re.compile(r"^phase: (.+)$"), lambda m: _PHASE_LINES.get(m[1], f"{m[1]}.")),
    (re.compile(r"^(seat \d+) takes the (.+) of corner (\d) and hands in its bid$"),
     lambda m: f"{m[1]} takes the {m[2]} of corner {m[3]} and pays the bid into the pot"),
    (re.compile(r"^everyone holds a closed hand forward$"),
     lambda m: "Everyone holds out a closed hand with a secret bid"),
    (re.compile(r"^all players open their hands: (.+)$"),
     lambda m: "The hands open: " + re.sub(r" bid (\d+) \(counts (\d+)\)", r" bid \1, which counts as \2", m[1])),
    (re.compile(r"^the order of choosing corners: (.+)$"), lambda m: f"Corners are taken in this order: {m[1]}"),
    (re.compile(r"^(.+) bid the same \((\d+)\): no corner, and the bid goes back to the collection$"),
     lambda m: f"{m[1]} tie at {m[2]}: no corner for them, and they keep their weed tokens"),
    (re.compile(r"^four coins are taken from the coin bag and placed on corners 1 to 4 of the trading table$"),
     lambda m: "Four coins from the bag go face down on corners 1, 2, 3 and 4 of the trading table"),
    (re.compile(r"^everyone has chosen a character card$"), lambda m: "Everyone has picked a character"),
)


def log_words(line: str) -> str:
    """One line of the public log in players' words (seat numbers are named by the caller)."""
    for pattern, rewrite in _LOG_REWRITES:
        match = pattern.match(line)
        if match:
            return rewrite(match)
    return line


STEP_HELP = {
    "choose": "choose one of your two dealt character cards (the other goes back to the stack)",
    "window": "play your character card now, or pass (JULITA and DEN OLLANDER can be played in every phase)",
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

# Longer explanations for `?` at the terminal.
STEP_DETAIL = {
    "choose": "You keep one card for this round, face down; the other goes back to the stack. Each card says "
    "in which phase it can be played.",
    "window": "Every player holding an unplayed card decides at the same time, in secret: pass or play. Cards "
    "played are turned up together; after a step in which someone played, everyone may react in another "
    "step. KEUN, GRIET, PASTOOR and BERNARD name their target as they are played; the effects happen, in "
    "the rulebook's order, when nobody plays any more.",
    "bid": "Put weed tokens from your collection into your closed hand. The highest bid chooses a corner of "
    "the trading table first and pays its tokens into the pot; equal bids take nothing and keep their "
    "tokens. With tokens you must bid at least one.",
    "corner": "Take all the coins of one corner (their values are hidden until you take them).",
    "cultivate": "One action: sow a plant card (pay its cost), harvest all tokens of one card, plough one "
    "over into a potato sack (pay its plough-over cost and take its tokens), or pass. Four potato sacks win.",
    "keep": "A kept card is your card next round, and you are dealt no new cards then.",
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
    now = f"{PHASE_NAMES.get(view['phase'], '')}, {STEP_WORDS.get(view['step'], '')}"
    if view["over"]:
        now = "the game has ended"
    lines = [
        f"[bold]Round {view['round']}[/bold] (of at most {view['max_rounds']}): {now}",
        f"Pot: {counted(view['pot'], 'weed token')}. Coin bag: {counted(view['bag']['coins'], 'coin')}. "
        f"Trading table corners 1-4: {', '.join(str(c) for c in view['corners'])} coins (face down)",
        "Plant cards (cost:tokens): capacity "
        + ", ".join(f"{c}:{rules['capacity'][c]}" for c in rules["capacity"])
        + "; plough over costs "
        + ", ".join(f"{c}:{rules['plough_cost'][c]}" for c in rules["plough_cost"]),
        "",
        f"{'seat':<{SEAT_COLUMN}}  coins  card  board (cost:tokens)",
    ]
    for info in view["table"]:
        card = "yes" if info["has_card"] else "-"
        if info["kept"]:
            card += " (kept)"
        marker = " (you)" if info["seat"] == seat else ""
        coins = str(info["coins"])
        if "coin_values" in info:
            coins += " " + "+".join(map(str, info["coin_values"]))
        lines.append(f"{'seat ' + str(info['seat']):<{SEAT_COLUMN}}  {coins:>5}  {card:<4}  {_board(info['board'])}  "
                     f"sacks {info['sacks']}{marker}")
    if view["plays"]:
        lines.append("Played this round: " + "; ".join(_play(p) for p in view["plays"]))
    trade = view.get("trade")
    if trade:
        lines.append("Bids as they count: " + bids_as_counted(view))
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
        lines.append("Last round: " + "; ".join(map(log_words, view["last_round_log"][-8:])))
    if view["log"]:
        lines.append("This round: " + "; ".join(map(log_words, view["log"][-8:])))
    if view["over"]:
        lines.append(f"[bold green]Game over: {why_won(view)}[/bold green]")
    elif seat is not None and seat in view["acting"] and view["step"] in STEP_HELP:
        lines.append(f"[bold]Your move:[/bold] {STEP_HELP[view['step']]}")
    return "\n".join(lines)


def bids_as_counted(view: JsonDict) -> str:
    """Each bid as it counts, with why it differs from the hand (CHANTAL's take, STEVEN's +2), and its outcome."""
    trade = view["trade"]
    played = {p["card"]: p["seat"] for p in view["plays"] if not p["blocked"]}
    parts = []
    for seat, bid in enumerate(trade["bids"]):
        hand, count = trade["hands"][seat], trade["counts"][seat]
        why = []
        if hand < bid:
            why.append(f"CHANTAL took {bid - hand}")
        if count > hand:
            why.append(f"STEVEN +{count - hand}")
        if played.get("CHANTAL") == seat:
            why.append("played CHANTAL: the tokens taken go to the collection, not the bid")
        text = f"seat {seat} bid {bid}" + (f", counts {count}" if count != bid else "")
        text += f" ({'; '.join(why)})" if why else ""
        if seat in trade["order"]:
            text += f", chooses a corner {('first', 'second', 'third', 'fourth')[trade['order'].index(seat)]}"
        elif count > 0:
            text += ", tied: no corner, the bid goes back"
        parts.append(text)
    return "; ".join(parts)


def why_won(view: JsonDict) -> str:
    """Who won a finished game and why, in the rulebook's words."""
    winners = view["winners"]
    names = " and ".join(f"seat {w}" for w in winners)
    if view["ended_by"] == "four_sacks":
        if len(winners) > 1:
            return f"{names} share the win: they reached four potato sacks in the same cultivate phase."
        return f"{names} wins with four potato sacks."
    most = max(info["sacks"] for info in view["table"])
    shared = ", and players still tied share the win" if len(winners) > 1 else ""
    return (
        f"{names} {'wins' if len(winners) == 1 else 'share the win'}: nobody reached four sacks by the round cap "
        f"({view['max_rounds']} rounds), so the most potato sacks ({most}) wins; ties are broken by the most plant "
        f"cards laid, then coin value, then weed tokens{shared}."
    )


def _play(play: JsonDict) -> str:
    text = f"seat {play['seat']} {play['card']}"
    if play["card"] == "JULITA":
        text += f" blocking {play['target']}"
    elif play["card"] == "DEN OLLANDER":
        text += f" taking from seat {play['target']}"
    elif isinstance(play["target"], str):
        text += f": {describe_target(play['card'], play['target'])}"
    if play["blocked"]:
        text += " (blocked)"
    return text


# ---- the terminal: events, choices in words, help ---------------------------------------------
def card_text(card: str) -> str:
    """A character card with its phase and its special action, in the rulebook's words."""
    phase = CARD_PHASE.get(card)
    when = "All" if phase is None else PHASE_NAMES[phase]
    return f"[bold]{card}[/bold] (Phase: {when}): {CARD_TEXT.get(card, '')}"


def narrate(before: JsonDict | None, after: JsonDict) -> list[str]:
    """What happened between two views of one seat: public events, private notes, cards seen."""
    lines: list[str] = []
    you, was = after.get("you"), (before or {}).get("you")
    if before is None:
        events, notes = list(after["log"]), list(you["notes"]) if you else []
    elif before["round"] == after["round"]:
        events = after["log"][len(before["log"]):]
        notes = you["notes"][len(was["notes"]):] if you and was else []
    else:
        events = after["last_round_log"][len(before["log"]):]
        events += [f"[bold]Round {after['round']}[/bold] begins"] + after["log"]
        notes = list(you["notes"]) if you else []
    lines.extend(f"[bold]{log_words(line)}[/bold]" if line.startswith("phase: ") else log_words(line)
                 for line in events)
    lines.extend(f"(only you know) {note}" for note in notes)
    if you:
        seen = set(was["dealt"]) | ({was["card"]} if was["card"] else set()) if was else set()
        for card in you["dealt"]:
            if card not in seen:
                lines.append("Dealt to you: " + card_text(card))
        if you["card"] and you["card"] not in seen and you["card"] not in you["dealt"]:
            lines.append("Your character card now: " + card_text(you["card"]))
    return lines


def action_words(view: JsonDict, action: Any) -> str:
    """One Eigen Kweek action in plain words."""
    if not isinstance(action, str):
        return str(action)
    kind, _, rest = action.partition(":")
    parts = rest.split(":") if rest else []
    you = view.get("you") or {}
    words = _WORDS.get(kind)
    return words(view, you, parts) if words is not None else action


def _paid(payment: str) -> int:
    return sum(int(coin) for coin in payment.split("+") if coin)


def _price(view: JsonDict, kind: str, parts: list[str]) -> int:
    """The price of sowing or ploughing over a card now: the card's, halved (rounded up) by your FRANK."""
    full = int(view["rules"]["sow_cost" if kind == "sow" else "plough_cost"][parts[0]])
    frank = any(p["card"] == "FRANK" and not p["blocked"] and p["seat"] == view["seat"] for p in view["plays"])
    return (full + 1) // 2 if frank else full


def _paying(view: JsonDict, kind: str, parts: list[str]) -> str:
    over = _paid(parts[1]) - _price(view, kind, parts)
    return f"paying {parts[1]}" + (f" ({over} over: coins give no change)" if over > 0 else "")


def _own_tokens(view: JsonDict, cost: str, noun: str) -> str:
    return counted(_tokens_on(view, view["seat"], cost), noun)


def _tokens_on(view: JsonDict, seat: int, cost: str) -> int:
    for slot in view["table"][seat]["board"]:
        if str(slot["cost"]) == cost:
            return int(slot["tokens"])
    return 0


_WORDS: dict[str, Any] = {
    "choose": lambda v, y, p: f"choose {p[0]} for this round",
    "pass": lambda v, y, p: "pass" if v["step"] != "cultivate" else "pass (do nothing this phase)",
    "play": lambda v, y, p: f"play {p[0]}",
    "block": lambda v, y, p: f"play JULITA: block {p[0]} and undo its effect",
    "take": lambda v, y, p: f"play DEN OLLANDER: take the unplayed card of seat {p[0]}",
    "ria": lambda v, y, p: {
        "draw": "RIA: draw a card from the stack",
        "skip": "RIA: draw no card",
        "left": "RIA: everyone passes cards to the left (to the next seat)",
        "right": "RIA: everyone passes cards to the right (to the previous seat)",
    }[p[0]],
    "keun": lambda v, y, p: f"take the {counted(_tokens_on(v, int(p[0]), p[1]), 'weed token')} on the {p[1]} card of "
    f"seat {p[0]}" + (" (yours)" if int(p[0]) == v["seat"] else ""),
    "griet": lambda v, y, p: f"fill your {p[0]} card",
    "rob": lambda v, y, p: f"take a coin{f' worth {p[1]}' if len(p) > 1 else ''} from seat {p[0]}",
    "bernard": lambda v, y, p: f"block seat {p[0]} for the cultivate phase",
    "bid": lambda v, y, p: f"bid {counted(int(p[0]), 'weed token')}",
    "corner": lambda v, y, p: f"take corner {p[0]} ({counted(v['corners'][int(p[0]) - 1], 'coin')})",
    "sow": lambda v, y, p: f"sow the {p[0]} plant card for {counted(_price(v, 'sow', p), 'coin')}, "
    f"{_paying(v, 'sow', p)}",
    "plough": lambda v, y, p: f"plough over the {p[0]} card ({_own_tokens(v, p[0], 'token')}) into a "
    f"potato sack for {counted(_price(v, 'plough', p), 'coin')}, {_paying(v, 'plough', p)}",
    "harvest": lambda v, y, p: f"harvest the {_own_tokens(v, p[0], 'weed token')} on your {p[0]} card",
    "harvest_all": lambda v, y, p: "JOS: harvest all your plant cards at once",
    "keep": lambda v, y, p: f"keep {y.get('card') or 'your card'} for next round",
    "hand_in": lambda v, y, p: f"hand {y.get('card') or 'your card'} in",
}


def decision_help(view: JsonDict) -> str:
    """What the decision in ``view`` means."""
    step = view["step"]
    phase = PHASE_NAMES.get(view["phase"], view["phase"])
    text = f"Phase: {phase}. " + STEP_HELP.get(step, "")
    if step in STEP_DETAIL:
        text += "\n" + STEP_DETAIL[step]
    you = view.get("you") or {}
    for card in [*you.get("dealt", []), *([you["card"]] if you.get("card") else [])]:
        text += "\n" + card_text(card)
    return text
