"""What the table page must tell a player on a phone, checked in a real browser while a game is played.

Used by ``test_table_ui.py`` (one page per game played to the end at 360x740): at each of the
phone's decisions, "What just happened" holds every line since its previous decision, none hidden,
a long run scrolling under its count; the move panel never lies over the board with choices out of
reach inside it; no button's label is cut; words are spelled in their plural forms. At the end:
every event of the record has a line in the log, the scores by round fit the screen, and each
game's own facts (a roll of 1, an outbreak's reasons, the colours of the dice) are told.
"""

from __future__ import annotations

import re
from typing import Any

# Everything about the phone page that the checks read, in one evaluation.
PAGE_STATE = """() => {
  const box = document.getElementById('happened');
  const items = [...box.querySelectorAll('li')];
  const gone = (li) => getComputedStyle(li).display === 'none' || getComputedStyle(li).visibility === 'hidden';
  const list = box.querySelector('ul');
  const panel = document.getElementById('controls-panel');
  const rect = panel.getBoundingClientRect();
  const me = document.querySelector('.player.me');
  return {
    shown: box.hidden ? 0 : items.length,
    count: Number(box.dataset.count || 0),
    heading: box.hidden ? '' : (box.querySelector('strong') || box).textContent,
    hiddenItems: items.filter(gone).length,
    listScrolls: !list || list.scrollHeight <= list.clientHeight + 1
      || ['auto', 'scroll'].includes(getComputedStyle(list).overflowY),
    log: document.querySelectorAll('#log li').length,
    fixed: getComputedStyle(panel).position === 'fixed',
    panelHeight: rect.height,
    panelHidden: panel.scrollHeight - panel.clientHeight,
    viewport: window.innerHeight,
    cut: [...document.querySelectorAll('#controls button, #controls select')]
      .filter((b) => b.scrollWidth > b.clientWidth + 1).map((b) => b.textContent.trim()),
    myBoard: me ? me.innerText : '',
    text: document.body.innerText,
  };
}"""

LOG_LINES = """() => [...document.querySelectorAll('#log li')].map((li) => [
  li.dataset.event === undefined ? null : Number(li.dataset.event), li.textContent])"""

SCORES_FIT = """() => {
  const table = document.getElementById('scores-by-round');
  return table ? table.parentElement.scrollWidth - table.parentElement.clientWidth : 0;
}"""

OUTBREAK_SUM = re.compile(r"reached (\d+) \((\d+) before and (\d+) in this (grab|draw)\); (\d+) make an outbreak")


class PhoneWatch:
    """Collects what went wrong on the phone's page, decision by decision (read ``problems`` at the end)."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.problems: list[str] = []
        self.log_at_my_move: int | None = None
        self.decisions = 0

    def _fail(self, text: str) -> None:
        if text not in self.problems:
            self.problems.append(text)

    def before_my_move(self, page: Any) -> None:
        """At a decision of the phone's player, before it is made: check the page as they see it."""
        state = page.evaluate(PAGE_STATE)
        self.decisions += 1
        if self.log_at_my_move is not None:
            since = state["log"] - self.log_at_my_move
            if state["shown"] != since:
                shown = state["shown"]
                self._fail(f"'What just happened' shows {shown} lines, {since} were logged since your last move")
        if state["hiddenItems"]:
            self._fail(f"'What just happened' hides {state['hiddenItems']} of its lines")
        if not state["listScrolls"]:
            self._fail("'What just happened' cuts its lines off without scrolling")
        if state["shown"] > 3 and str(state["shown"]) not in state["heading"]:
            self._fail(f"'What just happened' holds {state['shown']} lines without saying how many")
        if state["fixed"] and (state["panelHidden"] > 1 or state["panelHeight"] > 0.5 * state["viewport"]):
            self._fail(
                f"the move panel lies over the board ({state['panelHeight']:.0f}px of {state['viewport']}) "
                f"with {state['panelHidden']}px of it out of reach inside it"
            )
        if state["cut"]:
            self._fail(f"move labels cut short: {state['cut'][:3]}")
        if "values hidden" in state["myBoard"]:
            self._fail("your own board hides the values of coins your private box lists")
        self._words(state["text"])
        self._outbreak(page)
        self.log_at_my_move = page.evaluate("() => document.querySelectorAll('#log li').length")

    def _words(self, text: str) -> None:
        odd = re.findall(r"\w+\(s\)", text)
        if odd:
            self._fail(f"words not in their plural forms: {sorted(set(odd))[:4]}")

    def _outbreak(self, page: Any) -> None:
        story = page.locator("#outbreak-story")
        if not story.count():
            return
        self.check_outbreak_text(story.inner_text())

    def check_outbreak_text(self, text: str) -> None:
        """An outbreak's words: the game's own verb, the right sum, who lost and why."""
        wrong_verb = "grab" if self.game_id == "eel-harvest" else "draw"
        if re.search(rf"\b{wrong_verb}\b", text):
            self._fail(f"the outbreak says '{wrong_verb}': {text}")
        found = OUTBREAK_SUM.search(text)
        if found:
            total, before, drawn, _word, threshold = (int(g) if g.isdigit() else g for g in found.groups())
            if total != before + drawn or total < threshold:
                self._fail(f"the outbreak's sum is wrong: {text}")
        if "loses" not in text and "lose " not in text:
            self._fail(f"the outbreak does not say who lost: {text}")
        if self.game_id == "eel-harvest" and "unscored" not in text:
            self._fail(f"the outbreak does not say that the other reserves went back unscored: {text}")

    def at_the_end(self, page: Any, record: dict[str, Any]) -> None:
        """Every event of the record has its line; the game's own facts are told; the scores fit."""
        lines = page.evaluate(LOG_LINES)
        told: dict[int, list[str]] = {}
        for event, text in lines:
            if event is not None:
                told.setdefault(event, []).append(text)
        overflow = page.evaluate(SCORES_FIT)
        if overflow > 0:
            self._fail(f"the scores by round run {overflow}px past the edge of the screen")
        events = record["events"]
        if self.game_id == "pig":
            # Each roll of the die has its line (the page was open from the first move on).
            rolled = sum(1 for event in events if "chance" in event)
            said = sum(1 for _event, text in lines if " rolls " in text)
            if said != rolled:
                self._fail(f"{rolled} rolls of the die, {said} told in the log")
        if not told:
            self._fail("no log line says which event it tells")
            return
        untold = []
        for index in range(min(told), len(events)):
            event = events[index]
            if index in told:
                continue
            # A move whose outcome is a draw of chance is told by that outcome's line.
            if "moves" in event and index + 1 < len(events) and "chance" in events[index + 1]:
                continue
            untold.append((index, event))
        if untold:
            self._fail(f"{len(untold)} events of the record have no line in the log, e.g. {untold[:3]}")
        every = [text for texts in told.values() for text in texts]
        self._words(" ".join(every))
        getattr(self, f"_end_{self.game_id.replace('-', '_')}", lambda *_: None)(events, told, page)

    def _end_pig(self, events: list[Any], told: dict[int, list[str]], page: Any) -> None:
        for index, event in enumerate(events):
            if event.get("chance") == 1 and index in told and not any("rolls a 1" in t for t in told[index]):
                self._fail(f"the roll of 1 at event {index} is not told: {told[index]}")
        last = len(events) - 1
        if "chance" in events[last] and any("holds" in t for t in told.get(last, [])):
            self._fail(f"the game ended on a roll but the log says a hold: {told[last]}")

    def _end_catch_a_dragon(self, events: list[Any], told: dict[int, list[str]], page: Any) -> None:
        if page.locator("#eggs-left").count():
            self._fail(f"after the game the table still says '{page.inner_text('#eggs-left')}'")
        for index, event in enumerate(events):
            if "chance" in event and index in told:
                rolls = [t for t in told[index] if " rolls " in t]
                if rolls and not all(re.search(r"[a-z]+ \d", t) for t in rolls):
                    self._fail(f"a roll is told in colours without the numbers on the dice: {rolls}")
        dice = page.evaluate(
            "() => [...document.querySelectorAll('#board .die')]"
            ".map((d) => [getComputedStyle(d).backgroundColor, d.getAttribute('aria-label') || ''])"
        )
        if not dice or not all(label and re.search(r"[a-z]+ \d", label) for _colour, label in dice):
            self._fail(f"dice without their colour and number: {dice[:3]}")

    def _end_eel_harvest(self, events: list[Any], told: dict[int, list[str]], page: Any) -> None:
        for texts in told.values():
            joined = " ".join(texts)
            if "outbreak" in joined.lower():
                self.check_outbreak_text(joined)

    def _end_wriggle_roulette(self, events: list[Any], told: dict[int, list[str]], page: Any) -> None:
        self._end_eel_harvest(events, told, page)


def guide_problems(game_id: str, guide: str, view: dict[str, Any]) -> list[str]:
    """What "How to play" gets wrong against the options in force (the numbers come from the view)."""
    problems = []
    numbers = {
        "pig": ("goal",),
        "wriggle-roulette": ("target", "threshold", "max_grab"),
        "eel-harvest": ("target", "threshold", "max_grab"),
        "catch-a-dragon": ("rounds",),
    }.get(game_id, ())
    for key in numbers:
        if not re.search(rf"\b{view[key]}\b", guide):
            problems.append(f"'How to play' does not give this table's {key} ({view[key]}): {guide}")
    harvest = game_id == "eel-harvest" and not view["options"]["outbreak_scores_reserve"]
    if harvest and ("the eels in front of them" in guide or "only the eels they drew" not in guide):
        problems.append(f"'How to play' misstates who scores what at an outbreak: {guide}")
    return problems
