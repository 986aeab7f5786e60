"""Text rendering of Eigen Kweek views (Rich markup), kept apart from the rules.

``render_view`` draws the table (seats written ``seat N``: the terminal puts its seat names in
their place); ``narrate`` tells a seat what happened between
two of its views (the public log and its private notes, with the text of every
character card it is dealt); ``action_words`` and ``decision_help`` put choices
and decisions in plain words for the terminal.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len

from gamebag.core.i18n import join_list
from gamebag.core.protocol import JsonDict
from gamebag.games.eigen_kweek.components import CARD_PHASE, CARD_TEXT
from gamebag.games.eigen_kweek.logwords import coins, log_words, seat_token, tokens
from gamebag.games.eigen_kweek.translation import N_, _

__all__ = ["PHASE_NAMES", "STEP_WORDS", "action_words", "bids_as_counted", "card_text", "decision_help", "log_words",
           "narrate", "render_view", "why_won"]

# Seats are written ``seat N`` inside every message (a ``{seat}`` placeholder's value): front ends
# put the seat's name there, so no translation spells a seat itself.
SEAT_COLUMN = 8  # wide enough for the terminal's seat names ("Player 8")

# The rulebook's names of the phases (shown with ``_``: these are catalogue messages).
PHASE_NAMES = {
    "deal": N_("Deal Characters"),
    "growth": N_("Growth"),
    "trade": N_("Trade"),
    "cultivate": N_("Cultivate"),
    "hand_in": N_("Hand In Characters"),
}

# What the table waits for, in words (the page's "phase: step" line says the same).
STEP_WORDS = {
    "choose": N_("everyone picks a character in secret"), "window": N_("characters may be played now"),
    "bid": N_("secret bids"), "corner": N_("taking corners in bid order"),
    "ria_choice": N_("RIA may draw a card from the stack"), "ria_draw": N_("RIA draws a card"),
    "ria_direction": N_("RIA passes the cards"), "keep": N_("keep your character or hand it in"),
    "keun": N_("KEUN picks a plant card"), "griet": N_("GRIET fills a plant card"),
    "rob": N_("PASTOOR picks an opponent"), "rob_draw": N_("PASTOOR takes a coin"),
    "lucien_draw": N_("LUCIEN draws a coin from the bag"), "bernard": N_("BERNARD picks a target"),
    "cultivate": N_("each player sows, ploughs or harvests"), "refill": N_("coins go onto the trading table"),
    "deal": N_("character cards are dealt"),
}

STEP_HELP = {
    "choose": N_("choose one of your two dealt character cards (the other goes back to the stack)"),
    "window": N_("play your character card now, or pass (JULITA and DEN OLLANDER can be played in every phase)"),
    "ria_choice": N_("RIA: draw a card from the stack (you may), or take none"),
    "ria_direction": N_("RIA: pass every card to the left (next seat) or to the right"),
    "keun": N_("KEUN: take all weed tokens from one plant card"),
    "griet": N_("GRIET: fill one of your plant cards"),
    "rob": N_("PASTOOR: take a coin from an opponent"),
    "bernard": N_("BERNARD: block an opponent for this cultivate phase"),
    "bid": N_("bid weed tokens in a closed hand (at least one if you have any)"),
    "corner": N_("choose a corner of the trading table and take its coins"),
    "cultivate": N_("sow, harvest, plough over, or pass"),
    "keep": N_("keep your unplayed character card for next round, or hand it in"),
}

# Longer explanations for `?` at the terminal.
STEP_DETAIL = {
    "choose": N_("You keep one card for this round, face down; the other goes back to the stack. Each card says "
                 "in which phase it can be played."),
    "window": N_("Every player holding an unplayed card decides at the same time, in secret: pass or play. Cards "
                 "played are turned up together; after a step in which someone played, everyone may react in "
                 "another step. KEUN, GRIET, PASTOOR and BERNARD name their target as they are played; the effects "
                 "happen, in the rulebook's order, when nobody plays any more."),
    "bid": N_("Put weed tokens from your collection into your closed hand. The highest bid chooses a corner of "
              "the trading table first and pays its tokens into the pot; equal bids take nothing and keep their "
              "tokens. With tokens you must bid at least one."),
    "corner": N_("Take all the coins of one corner (their values are hidden until you take them)."),
    "cultivate": N_("One action: sow a plant card (pay its cost), harvest all tokens of one card, plough one "
                    "over into a potato sack (pay its plough-over cost and take its tokens), or pass. Four potato "
                    "sacks win."),
    "keep": N_("A kept card is your card next round, and you are dealt no new cards then."),
}

ORDINALS = (N_("chooses a corner first"), N_("chooses a corner second"), N_("chooses a corner third"),
            N_("chooses a corner fourth"))


def _step_words(step: str) -> str:
    return _(STEP_WORDS[step]) if step in STEP_WORDS else ""


def _phase_name(phase: str) -> str:
    return _(PHASE_NAMES[phase]) if phase in PHASE_NAMES else phase


def _board(board: list[JsonDict]) -> str:
    parts = []
    for slot in board:
        if slot["status"] == "empty":
            parts.append(f"{slot['cost']}:-")
        elif slot["status"] == "sack":
            # Translators: a potato sack on a player board, in the terminal's table (short, capitals).
            sack = _("SACK")
            parts.append(f"{slot['cost']}:[bold]{sack}[/bold]")
        else:
            parts.append(f"{slot['cost']}:{slot['tokens']}")
    return " ".join(parts)


def _pad(text: str, width: int, right: bool = False) -> str:
    """``text`` padded to ``width`` terminal cells (a Japanese or Chinese character takes two)."""
    gap = " " * max(0, width - cell_len(text))
    return gap + text if right else text + gap


def render_view(view: JsonDict) -> str:
    """The table as one player (or a spectator) sees it."""
    seat = view.get("seat")
    rules = view["rules"]
    now = _("{phase}, {step}", phase=_phase_name(view["phase"]), step=_step_words(view["step"]))
    if view["over"]:
        now = _("the game has ended")
    capacity = ", ".join(f"{c}:{rules['capacity'][c]}" for c in rules["capacity"])
    plough = ", ".join(f"{c}:{rules['plough_cost'][c]}" for c in rules["plough_cost"])
    lines = [
        _("[bold]Round {round}[/bold] (of at most {max_rounds}): {now}", round=view["round"],
          max_rounds=view["max_rounds"], now=now),
        _("Pot: {pot}. Coin bag: {bag}. Trading table corners 1-4: {corners} coins (face down)",
          pot=tokens(view["pot"]), bag=coins(view["bag"]["coins"]),
          corners=", ".join(str(c) for c in view["corners"])),
        _("Plant cards (cost:tokens): capacity {capacity}; plough over costs {plough}", capacity=capacity,
          plough=plough),
        "",
    ]
    # Translators: the column heads of the terminal's table (short words: they head narrow columns); the
    # first heads the players' seats, whose names fill the column.
    heads = (_("seat"), _("coins"), _("card"), _("board (cost:tokens)"))
    wide = (max(5, cell_len(heads[1])), max(4, cell_len(heads[2])))
    lines.append(f"{_pad(heads[0], SEAT_COLUMN)}  {_pad(heads[1], wide[0], right=True)}  {_pad(heads[2], wide[1])}  "
                 f"{heads[3]}")
    for info in view["table"]:
        card = _("yes") if info["has_card"] else "-"
        if info["kept"]:
            card = _("{card} (kept)", card=card)
        coin_text = str(info["coins"])
        if "coin_values" in info:
            coin_text += " " + "+".join(map(str, info["coin_values"]))
        row = f"{'seat ' + str(info['seat']):<{SEAT_COLUMN}}  {_pad(coin_text, wide[0], right=True)}  "
        row += f"{_pad(card, wide[1])}  "
        row += _board(info["board"]) + "  " + _("sacks {sacks}", sacks=info["sacks"])
        if info["seat"] == seat:
            row += " " + _("(you)")
        lines.append(row)
    if view["plays"]:
        lines.append(_("Played this round: {plays}", plays="; ".join(_play(p) for p in view["plays"])))
    if view.get("trade"):
        lines.append(_("Bids as they count: {bids}", bids=bids_as_counted(view)))
    you: Any = view.get("you")
    if you:
        lines.append("")
        lines.extend(_you_lines(you))
    if len(view["log"]) < 3 and view["last_round_log"]:
        lines.append(_("Last round: {events}", events="; ".join(map(log_words, view["last_round_log"][-8:]))))
    if view["log"]:
        lines.append(_("This round: {events}", events="; ".join(map(log_words, view["log"][-8:]))))
    if view["over"]:
        lines.append("[bold green]" + _("Game over: {why}", why=why_won(view)) + "[/bold green]")
    elif seat is not None and seat in view["acting"] and view["step"] in STEP_HELP:
        lines.append(_("[bold]Your move:[/bold] {help}", help=_(STEP_HELP[view["step"]])))
    return "\n".join(lines)


def _you_lines(you: JsonDict) -> list[str]:
    """The seat's own secrets: weed tokens, coins, its character, what it knows."""
    held = tokens(you["tokens"])
    if you["sealed_bid"] is not None:
        held = _("{tokens} (+{bid} in your closed hand)", tokens=held, bid=you["sealed_bid"])
    values = "+".join(map(str, you["coins"])) or _("none")
    lines = [_("[bold]You[/bold]: {tokens}; coins {coins} (value {value}); character: {card}", tokens=held,
               coins=values, value=you["coin_value"], card=you["card"] or _("none"))]
    if you["dealt"]:
        lines.append(_("Dealt to you: {cards}", cards=join_list(list(you["dealt"]))))
    if you["ria_card"]:
        lines.append(_("RIA drew: {card}", card=you["ria_card"]))
    if you["known_cards"]:
        known = [_("{seat} holds {card}", seat=seat_token(held), card=c) for held, c in you["known_cards"].items()]
        lines.append(_("You know: {cards}", cards=", ".join(known)))
    lines.extend(f"  [dim]{log_words(note)}[/dim]" for note in you["notes"])
    return lines


def bids_as_counted(view: JsonDict) -> str:
    """Each bid as it counts, with why it differs from the hand (CHANTAL's take, STEVEN's +2), and its outcome."""
    trade = view["trade"]
    played = {p["card"]: p["seat"] for p in view["plays"] if not p["blocked"]}
    parts = []
    for seat, bid in enumerate(trade["bids"]):
        hand, count = trade["hands"][seat], trade["counts"][seat]
        why = []
        if hand < bid:
            why.append(_("CHANTAL took {n}", n=bid - hand))
        if count > hand:
            why.append(_("STEVEN +{n}", n=count - hand))
        if played.get("CHANTAL") == seat:
            why.append(_("played CHANTAL: the tokens taken go to the collection, not the bid"))
        if count != bid:
            text = _("{seat} bid {bid}, counts {count}", seat=seat_token(seat), bid=bid, count=count)
        else:
            text = _("{seat} bid {bid}", seat=seat_token(seat), bid=bid)
        if why:
            text = _("{bid} ({why})", bid=text, why="; ".join(why))
        if seat in trade["order"]:
            text = _("{bid}, {outcome}", bid=text, outcome=_(ORDINALS[trade["order"].index(seat)]))
        elif count > 0:
            text = _("{bid}, tied: no corner, the bid goes back", bid=text)
        parts.append(text)
    return "; ".join(parts)


def why_won(view: JsonDict) -> str:
    """Who won a finished game and why, in the rulebook's words."""
    winners = view["winners"]
    names = join_list([seat_token(w) for w in winners])
    if view["ended_by"] == "four_sacks":
        if len(winners) > 1:
            return _("{names} share the win: they reached four potato sacks in the same cultivate phase.", names=names)
        return _("{names} wins with four potato sacks.", names=names)
    most = max(info["sacks"] for info in view["table"])
    if len(winners) > 1:
        return _("{names} share the win: nobody reached four sacks by the round cap ({rounds} rounds), so the most "
                 "potato sacks ({most}) wins; ties are broken by the most plant cards laid, then coin value, then "
                 "weed tokens, and players still tied share the win.", names=names, rounds=view["max_rounds"],
                 most=most)
    return _("{names} wins: nobody reached four sacks by the round cap ({rounds} rounds), so the most potato sacks "
             "({most}) wins; ties are broken by the most plant cards laid, then coin value, then weed tokens.",
             names=names, rounds=view["max_rounds"], most=most)


def target_words(card: str, action: str) -> str:
    """What a KEUN, GRIET, PASTOOR or BERNARD play aims at (its action code ``keun:1:6``), in words."""
    p = action.split(":")
    if card == "KEUN":
        return _("all weed tokens from the {cost} plant card of {seat}", cost=p[2], seat=seat_token(p[1]))
    if card == "GRIET":
        return _("completely fill its own {cost} plant card", cost=p[1])
    if card == "PASTOOR":
        if len(p) == 3:
            return _("one coin worth {value} from {seat}", value=p[2], seat=seat_token(p[1]))
        return _("one coin from {seat}", seat=seat_token(p[1]))
    if card == "BERNARD":
        return _("block {seat} for the cultivate phase", seat=seat_token(p[1]))
    return action


def _play(play: JsonDict) -> str:
    card, seat = play["card"], seat_token(play["seat"])
    if card == "JULITA":
        text = _("{seat} {card} blocking {target}", seat=seat, card=card, target=play["target"])
    elif card == "DEN OLLANDER":
        text = _("{seat} {card} taking from {target}", seat=seat, card=card, target=seat_token(play["target"]))
    elif isinstance(play["target"], str):
        text = _("{seat} {card}: {target}", seat=seat, card=card, target=target_words(card, play["target"]))
    else:
        text = f"seat {play['seat']} {card}"
    if play["blocked"]:
        text = _("{play} (blocked)", play=text)
    return text


# ---- the terminal: events, choices in words, help ---------------------------------------------
def card_text(card: str) -> str:
    """A character card with its phase and its special action, in the rulebook's words."""
    phase = CARD_PHASE.get(card)
    # Translators: the phase of JULITA and DEN OLLANDER, played in any phase ("Phase: All").
    when = _("All") if phase is None else _(PHASE_NAMES[phase])
    return _("[bold]{card}[/bold] (Phase: {phase}): {text}", card=card, phase=when,
             text=_(CARD_TEXT[card]) if card in CARD_TEXT else "")


def narrate(before: JsonDict | None, after: JsonDict) -> list[str]:
    """What happened between two views of one seat: public events, private notes, cards seen."""
    lines: list[str] = []
    you, was = after.get("you"), (before or {}).get("you")
    events: list[str]
    if before is None:
        events, notes = [_line(e) for e in after["log"]], list(you["notes"]) if you else []
    elif before["round"] == after["round"]:
        events = [_line(e) for e in after["log"][len(before["log"]):]]
        notes = you["notes"][len(was["notes"]):] if you and was else []
    else:
        events = [_line(e) for e in after["last_round_log"][len(before["log"]):]]
        events += [_("[bold]Round {round}[/bold] begins", round=after["round"])]
        events += [_line(e) for e in after["log"]]
        notes = list(you["notes"]) if you else []
    lines.extend(events)
    lines.extend(_("(only you know) {note}", note=log_words(note)) for note in notes)
    if you:
        seen = set(was["dealt"]) | ({was["card"]} if was["card"] else set()) if was else set()
        for card in you["dealt"]:
            if card not in seen:
                lines.append(_("Dealt to you: {card}", card=card_text(card)))
        if you["card"] and you["card"] not in seen and you["card"] not in you["dealt"]:
            lines.append(_("Your character card now: {card}", card=card_text(you["card"])))
    return lines


def _line(event: str) -> str:
    """A log line in words; a new phase in bold."""
    return f"[bold]{log_words(event)}[/bold]" if event.startswith("phase: ") else log_words(event)


def action_words(view: JsonDict, action: Any) -> str:
    """One Eigen Kweek action in plain words."""
    if not isinstance(action, str):
        return str(action)
    kind, _sep, rest = action.partition(":")
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
    if over > 0:
        return _("paying {payment} ({over} over: coins give no change)", payment=parts[1], over=over)
    return _("paying {payment}", payment=parts[1])


def _tokens_on(view: JsonDict, seat: int, cost: str) -> int:
    for slot in view["table"][seat]["board"]:
        if str(slot["cost"]) == cost:
            return int(slot["tokens"])
    return 0


def _keun(v: JsonDict, p: list[str]) -> str:
    taken, seat = tokens(_tokens_on(v, int(p[0]), p[1])), seat_token(p[0])
    if int(p[0]) == v["seat"]:
        return _("take the {tokens} on the {cost} card of {seat} (yours)", tokens=taken, cost=p[1], seat=seat)
    return _("take the {tokens} on the {cost} card of {seat}", tokens=taken, cost=p[1], seat=seat)


def _rob(p: list[str]) -> str:
    if len(p) > 1:
        return _("take a coin worth {value} from {seat}", value=p[1], seat=seat_token(p[0]))
    return _("take a coin from {seat}", seat=seat_token(p[0]))


def _sow(v: JsonDict, p: list[str]) -> str:
    return _("sow the {cost} plant card for {price}, {paying}", cost=p[0], price=coins(_price(v, "sow", p)),
             paying=_paying(v, "sow", p))


def _plough(v: JsonDict, p: list[str]) -> str:
    held = _tokens_on(v, v["seat"], p[0])
    return _("plough over the {cost} card ({tokens}) into a potato sack for {price}, {paying}", cost=p[0],
             tokens=tokens(held), price=coins(_price(v, "plough", p)), paying=_paying(v, "plough", p))


_RIA = {
    "draw": N_("RIA: draw a card from the stack"),
    "skip": N_("RIA: draw no card"),
    "left": N_("RIA: everyone passes cards to the left (to the next seat)"),
    "right": N_("RIA: everyone passes cards to the right (to the previous seat)"),
}

_WORDS: dict[str, Any] = {
    "choose": lambda v, y, p: _("choose {card} for this round", card=p[0]),
    "pass": lambda v, y, p: _("pass") if v["step"] != "cultivate" else _("pass (do nothing this phase)"),
    "play": lambda v, y, p: _("play {card}", card=p[0]),
    "block": lambda v, y, p: _("play JULITA: block {card} and undo its effect", card=p[0]),
    "take": lambda v, y, p: _("play DEN OLLANDER: take the unplayed card of {seat}", seat=seat_token(p[0])),
    "ria": lambda v, y, p: _(_RIA[p[0]]),
    "keun": lambda v, y, p: _keun(v, p),
    "griet": lambda v, y, p: _("fill your {cost} card", cost=p[0]),
    "rob": lambda v, y, p: _rob(p),
    "bernard": lambda v, y, p: _("block {seat} for the cultivate phase", seat=seat_token(p[0])),
    "bid": lambda v, y, p: _("bid {tokens}", tokens=tokens(int(p[0]))),
    "corner": lambda v, y, p: _("take corner {corner} ({coins})", corner=p[0],
                                coins=coins(v["corners"][int(p[0]) - 1])),
    "sow": lambda v, y, p: _sow(v, p),
    "plough": lambda v, y, p: _plough(v, p),
    "harvest": lambda v, y, p: _("harvest the {tokens} on your {cost} card",
                                 tokens=tokens(_tokens_on(v, v["seat"], p[0])), cost=p[0]),
    "harvest_all": lambda v, y, p: _("JOS: harvest all your plant cards at once"),
    "keep": lambda v, y, p: _("keep {card} for next round", card=y["card"]) if y.get("card")
    else _("keep your card for next round"),
    "hand_in": lambda v, y, p: _("hand {card} in", card=y["card"]) if y.get("card") else _("hand your card in"),
}


def decision_help(view: JsonDict) -> str:
    """What the decision in ``view`` means."""
    step = view["step"]
    text = _("Phase: {phase}.", phase=_phase_name(view["phase"]))
    if step in STEP_HELP:
        text += " " + _(STEP_HELP[step])
    if step in STEP_DETAIL:
        text += "\n" + _(STEP_DETAIL[step])
    you = view.get("you") or {}
    for card in [*you.get("dealt", []), *([you["card"]] if you.get("card") else [])]:
        text += "\n" + card_text(card)
    return text
