"""Catch A Dragon's dice: the number on every die stands out from its colour by WCAG's 4.5:1 (issue 37).

catch-a-dragon.js draws each die's number in white or black, whichever stands out more on the
die's colour (white on gold was 2.4:1). It runs under node with a minimal DOM stand-in
(``js/dice_ink.mjs``) for the game's own colours and for names it has no colour for (drawn in a
hue of their own); skipped where node is missing.
"""

from __future__ import annotations

import colorsys
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import gamebag
from gamebag.core.match import Match

SCRIPT = Path(__file__).parent / "js" / "dice_ink.mjs"
NODE = shutil.which("node")
INK = {"ink-light": (255, 255, 255), "ink-dark": (0, 0, 0)}
WHITE = INK["ink-light"]  # the dice's number before inks were chosen (style.css's .die)


def _rgb(css: str) -> tuple[float, float, float]:
    """A ``#rrggbb``, ``#rgb`` or ``hsl(h, s%, l%)`` colour as 0-255 channels."""
    if css.startswith("#"):
        digits = css[1:] if len(css) == 7 else "".join(d * 2 for d in css[1:])
        red, green, blue = (int(digits[i : i + 2], 16) for i in (0, 2, 4))
        return red, green, blue
    hue, saturation, lightness = (float(n) for n in re.findall(r"[\d.]+", css))
    channels = colorsys.hls_to_rgb(hue / 360, lightness / 100, saturation / 100)
    return channels[0] * 255, channels[1] * 255, channels[2] * 255


def _luminance(rgb: tuple[float, float, float]) -> float:
    def linear(channel: float) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(c) for c in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def _contrast(one: tuple[float, float, float], other: tuple[float, float, float]) -> float:
    darker, lighter = sorted((_luminance(one), _luminance(other)))
    return (lighter + 0.05) / (darker + 0.05)


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_every_die_s_number_stands_out_from_its_colour() -> None:
    assert NODE is not None
    faces = Match(gamebag.make("catch-a-dragon", 2), 1).view(0)["faces"]
    names = [*faces, *(f"colour {n}" for n in range(40))]  # the game's colours, then 40 hues of their own
    done = subprocess.run(
        [NODE, str(SCRIPT), json.dumps(names)], capture_output=True, text=True, timeout=60, check=True
    )
    dice = json.loads(done.stdout)
    assert [d["name"] for d in dice] == names
    faint = []
    for drawn in dice:
        inks = [INK[c] for c in drawn["class"].split() if c in INK]
        ratio = _contrast(inks[0] if inks else WHITE, _rgb(drawn["background"]))
        if ratio < 4.5:
            faint.append(f"{drawn['name']} ({drawn['background']}, {drawn['class']}): {ratio:.2f}:1")
    assert not faint, faint
