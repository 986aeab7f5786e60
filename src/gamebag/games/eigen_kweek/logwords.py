"""Eigen Kweek's log lines and private notes in the reader's language.

The engine writes its public log and each seat's notes as fixed English sentences (records and
replays keep them as they are: language-neutral data). Each sentence has one pattern here, and each
pattern one catalogue message, so a line is told in the reader's language when it is shown, never
stored translated. Seats stay ``seat N`` inside the words (front ends put the seat's name there);
character names are never translated. ``eigen-kweek-words.js`` reads the same lines the same way
for the browser, with the same messages.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gamebag.core.i18n import join_list
from gamebag.games.eigen_kweek.translation import N_, _, ngettext

# The rulebook's phases, as the public log announces them ("phase: Growth").
PHASE_LINES = {
    "Deal Characters": N_("Deal characters: everyone is dealt character cards."),
    "Growth": N_("Growth: the plants grow."),
    "Trade": N_("Trading: everyone bids weed tokens for the coins on the trading table."),
    "Cultivate": N_("Sow, plough and harvest."),
    "Hand In Characters": N_("Keep or hand in characters."),
}

_CARD = r"(?P<card>[A-Z][A-Z ]*[A-Z])"
_SEAT = r"(?P<seat>seat \d+)"
_OTHER = r"(?P<other>seat \d+)"
_SEATS = r"(?P<seats>seat \d+(?:(?:, | and )seat \d+)*)"

Rewrite = Callable[[dict[str, str]], str]


def seat_token(seat: int | str) -> str:
    """``seat 2``: how a seat is written inside the words (front ends put its name there)."""
    return f"seat {seat}"


def tokens(count: str | int) -> str:
    """``3 weed tokens`` in the reader's language."""
    # Translators: the game's weed tokens (the box's "wietfiches"); {seat} values elsewhere are
    # "seat N", which the table replaces by the player's name: keep {seat} where a name belongs.
    return ngettext("{n} weed token", "{n} weed tokens", int(count))


def coins(count: str | int) -> str:
    """``2 coins`` in the reader's language."""
    return ngettext("{n} coin", "{n} coins", int(count))


def seats(text: str) -> str:
    """``seat 0 and seat 2`` (or ``seat 0, seat 2``) as the reader lists seats."""
    return join_list(re.findall(r"seat \d+", text))


def _hand(item: str) -> str:
    match = re.fullmatch(r"(seat \d+) bid (\d+)(?: \(counts (\d+)\))?", item)
    if match is None:
        return item
    if match[3] is None:
        return _("{seat} bid {bid}", seat=match[1], bid=match[2])
    return _("{seat} bid {bid}, which counts as {count}", seat=match[1], bid=match[2], count=match[3])


def _grow(g: dict[str, str]) -> str:
    if g["dry"]:
        return _("the plants grow: {tokens} from the pot onto the plant cards (the pot ran dry)",
                 tokens=tokens(g["n"]))
    return _("the plants grow: {tokens} from the pot onto the plant cards", tokens=tokens(g["n"]))


def _fluppe(g: dict[str, str]) -> str:
    cards = ngettext("{n} plant card", "{n} plant cards", int(g["cards"]))
    if g["short"]:
        return _("FLUPPE: {seat} receives {tokens} for {cards} (the pot ran short)", seat=g["seat"],
                 tokens=tokens(g["n"]), cards=cards)
    return _("FLUPPE: {seat} receives {tokens} for {cards}", seat=g["seat"], tokens=tokens(g["n"]), cards=cards)


def _pastoor_aim(g: dict[str, str]) -> str:
    if g["value"]:
        return _("PASTOOR of {seat}: one coin worth {value} from {other}", **g)
    return _("PASTOOR of {seat}: one coin from {other}", seat=g["seat"], other=g["other"])


def _ria_pass(g: dict[str, str]) -> str:
    if g["side"] == "left":
        return _("RIA: every card passes to the left; {seat} passes the drawn card to {other}", **g)
    return _("RIA: every card passes to the right; {seat} passes the drawn card to {other}",
             seat=g["seat"], other=g["other"])


def _winners(g: dict[str, str]) -> str:
    if len(re.findall(r"seat \d+", g["seats"])) > 1:
        return _("four potato sacks: {seats} win", seats=seats(g["seats"]))
    return _("four potato sacks: {seat} wins", seat=g["seats"])


def _corner_note(g: dict[str, str]) -> str:
    if g["values"] == "nothing":
        return _("corner {corner} held coins worth nothing", corner=g["corner"])
    # Translators: the separator of a list of coin values ("3, 1, 1"); Japanese and Chinese use "、".
    comma = _(", ")
    values = comma.join(g["values"].split(", "))
    return _("corner {corner} held coins worth {values}", corner=g["corner"], values=values)


_LINES: tuple[tuple[str, Rewrite], ...] = (
    (r"phase: (?P<title>.+)", lambda g: _(PHASE_LINES[g["title"]]) if g["title"] in PHASE_LINES else g["title"]),
    (_SEAT + r" kept a character card and is dealt none",
     lambda g: _("{seat} kept a character card and is dealt none", **g)),
    (r"everyone has chosen a character card", lambda g: _("Everyone has picked a character")),
    (_SEAT + r" plays " + _CARD + r", which finds nothing to act on",
     lambda g: _("{seat} plays {card}, which finds nothing to act on", **g)),
    (r"KEUN of " + _SEAT + r": all weed tokens from the (?P<cost>\d+) plant card of " + _OTHER,
     lambda g: _("KEUN of {seat}: all weed tokens from the {cost} plant card of {other}", **g)),
    (r"GRIET of " + _SEAT + r": completely fill its own (?P<cost>\d+) plant card",
     lambda g: _("GRIET of {seat}: completely fill its own {cost} plant card", **g)),
    (r"PASTOOR of " + _SEAT + r": one coin(?: worth (?P<value>\d+))? from " + _OTHER, _pastoor_aim),
    (r"BERNARD of " + _SEAT + r": block " + _OTHER + r" for the cultivate phase",
     lambda g: _("BERNARD of {seat}: block {other} for the cultivate phase", **g)),
    (r"RIA: the stack is empty, so " + _SEAT + r" takes no card",
     lambda g: _("RIA: the stack is empty, so {seat} takes no card", **g)),
    (r"RIA: " + _SEAT + r" takes no card from the stack", lambda g: _("RIA: {seat} takes no card from the stack", **g)),
    (r"RIA: " + _SEAT + r" draws a card from the stack", lambda g: _("RIA: {seat} draws a card from the stack", **g)),
    (r"the plants grow: (?P<n>\d+) weed tokens? from the pot onto the plant cards(?P<dry> \(the pot ran dry\))?",
     _grow),
    (r"everyone holds a closed hand forward", lambda g: _("Everyone holds out a closed hand with a secret bid")),
    (r"CHANTAL: " + _SEAT + r" takes (?P<n>\d+) weed tokens? from the other hands",
     lambda g: _("CHANTAL: {seat} takes {tokens} from the other hands", seat=g["seat"], tokens=tokens(g["n"]))),
    (r"STEFAAN: " + _SEAT + r" wins the tie at (?P<count>\d+)",
     lambda g: _("STEFAAN: {seat} wins the tie at {count}", **g)),
    (r"all players open their hands: (?P<hands>.+)",
     lambda g: _("The hands open: {bids}",
                 bids=join_list([_hand(h) for h in re.findall(r"seat \d+ bid \d+(?: \(counts \d+\))?", g["hands"])]))),
    (_SEATS + r" bid the same \((?P<count>\d+)\): no corner, and the bid goes back to the collection",
     lambda g: _("{seats} tie at {count}: no corner for them, and they keep their weed tokens",
                 seats=seats(g["seats"]), count=g["count"])),
    (r"the order of choosing corners: " + _SEATS,
     lambda g: _("Corners are taken in this order: {seats}", seats=seats(g["seats"]))),
    (r"LUCIEN: the coin bag is empty", lambda g: _("LUCIEN: the coin bag is empty")),
    (r"LUCIEN: " + _SEAT + r" bid the lowest and draws a coin from the bag",
     lambda g: _("LUCIEN: {seat} bid the lowest and draws a coin from the bag", **g)),
    (_SEAT + r" takes the (?P<n>\d+) coins? of corner (?P<corner>\d) and hands in its bid",
     lambda g: _("{seat} takes the {coins} of corner {corner} and pays the bid into the pot",
                 seat=g["seat"], coins=coins(g["n"]), corner=g["corner"])),
    (_SEAT + r" does nothing", lambda g: _("{seat} does nothing", **g)),
    (r"JOS: " + _SEAT + r" harvests all plant cards: (?P<n>\d+) weed tokens?",
     lambda g: _("JOS: {seat} harvests all plant cards: {tokens}", seat=g["seat"], tokens=tokens(g["n"]))),
    (_SEAT + r" harvests (?P<n>\d+) weed tokens? from the (?P<cost>\d+) card",
     lambda g: _("{seat} harvests {tokens} from the {cost} card", seat=g["seat"], tokens=tokens(g["n"]),
                 cost=g["cost"])),
    (_SEAT + r" sows the (?P<cost>\d+) card, paying (?P<paid>[\d+]+) \((?P<value>\d+)\)",
     lambda g: _("{seat} sows the {cost} card, paying {paid} ({value})", **g)),
    (_SEAT + r" ploughs over the (?P<cost>\d+) card, paying (?P<paid>[\d+]+) \((?P<value>\d+)\), and takes its "
     r"(?P<n>\d+) weed tokens?: a potato sack",
     lambda g: _("{seat} ploughs over the {cost} card, paying {paid} ({value}), and takes its {tokens}: a potato sack",
                 seat=g["seat"], cost=g["cost"], paid=g["paid"], value=g["value"], tokens=tokens(g["n"]))),
    (r"four potato sacks: " + _SEATS + r" wins?", _winners),
    (_SEAT + r" keeps an unplayed character card", lambda g: _("{seat} keeps an unplayed character card", **g)),
    (r"round cap of (?P<rounds>\d+) reached: the most potato sacks win",
     lambda g: _("round cap of {rounds} reached: the most potato sacks win", **g)),
    (r"the coin bag is empty: no coins go on the trading table",
     lambda g: _("the coin bag is empty: no coins go on the trading table")),
    (r"the coin bag holds only (?P<n>\d+) coins?: only those go on the table",
     lambda g: _("the coin bag holds only {coins}: only those go on the table", coins=coins(g["n"]))),
    (r"four coins are taken from the coin bag and placed on corners 1 to 4 of the trading table",
     lambda g: _("Four coins from the bag go face down on corners 1, 2, 3 and 4 of the trading table")),
    (_SEAT + r" plays JULITA and blocks " + _CARD + r" of " + _OTHER,
     lambda g: _("{seat} plays JULITA and blocks {card} of {other}", **g)),
    (_SEAT + r" plays DEN OLLANDER on " + _OTHER + r", who has no unplayed card left",
     lambda g: _("{seat} plays DEN OLLANDER on {other}, who has no unplayed card left", **g)),
    (_SEAT + r" plays DEN OLLANDER and takes the unplayed card of " + _OTHER,
     lambda g: _("{seat} plays DEN OLLANDER and takes the unplayed card of {other}", **g)),
    (_SEAT + r" plays " + _CARD, lambda g: _("{seat} plays {card}", **g)),
    (r"the play of " + _CARD + r" by " + _SEAT + r" is undone",
     lambda g: _("the play of {card} by {seat} is undone", **g)),
    (r"RIA: every card passes to the (?P<side>left|right); " + _SEAT + r" passes the drawn card to " + _OTHER,
     _ria_pass),
    (r"KEUN: " + _SEAT + r" takes (?P<n>\d+) weed tokens? from the (?P<cost>\d+) card of " + _OTHER,
     lambda g: _("KEUN: {seat} takes {tokens} from the {cost} card of {other}", seat=g["seat"], tokens=tokens(g["n"]),
                 cost=g["cost"], other=g["other"])),
    (r"FLUPPE: " + _SEAT + r" receives (?P<n>\d+) weed tokens? for (?P<cards>\d+) plant cards?"
     r"(?P<short> \(the pot ran short\))?", _fluppe),
    (r"GRIET: " + _SEAT + r" fills the (?P<cost>\d+) card with (?P<n>\d+) weed tokens?",
     lambda g: _("GRIET: {seat} fills the {cost} card with {tokens}", seat=g["seat"], cost=g["cost"],
                 tokens=tokens(g["n"]))),
    (r"PASTOOR: " + _SEAT + r" takes a coin from " + _OTHER,
     lambda g: _("PASTOOR: {seat} takes a coin from {other}", **g)),
    (r"BERNARD: " + _SEAT + r" blocks " + _OTHER + r" for the entire cultivate phase",
     lambda g: _("BERNARD: {seat} blocks {other} for the entire cultivate phase", **g)),
    # A seat's private notes.
    (r"RIA: you drew " + _CARD, lambda g: _("RIA: you drew {card}", **g)),
    (r"LUCIEN: you drew a coin worth (?P<value>\d+)", lambda g: _("LUCIEN: you drew a coin worth {value}", **g)),
    (r"corner (?P<corner>\d) held coins worth (?P<values>.+)", _corner_note),
    (r"DEN OLLANDER: you took " + _CARD + r" from " + _SEAT,
     lambda g: _("DEN OLLANDER: you took {card} from {seat}", **g)),
    (_SEAT + r" took your " + _CARD + r" with DEN OLLANDER",
     lambda g: _("{seat} took your {card} with DEN OLLANDER", **g)),
    (r"your " + _CARD + r" came back to you", lambda g: _("your {card} came back to you", **g)),
    (r"RIA: you received " + _CARD + r" from " + _SEAT, lambda g: _("RIA: you received {card} from {seat}", **g)),
    (r"PASTOOR: you took a coin worth (?P<value>\d+) from " + _SEAT,
     lambda g: _("PASTOOR: you took a coin worth {value} from {seat}", **g)),
    (r"PASTOOR: " + _SEAT + r" took your coin worth (?P<value>\d+)",
     lambda g: _("PASTOOR: {seat} took your coin worth {value}", **g)),
)
_COMPILED = tuple((re.compile(pattern), rewrite) for pattern, rewrite in _LINES)


def log_words(line: str) -> str:
    """One line of the public log (or a private note) in the reader's words; a line no pattern
    knows is shown as the engine wrote it."""
    for pattern, rewrite in _COMPILED:
        match = pattern.fullmatch(line)
        if match:
            return rewrite({key: value or "" for key, value in match.groupdict().items()})
    return line
