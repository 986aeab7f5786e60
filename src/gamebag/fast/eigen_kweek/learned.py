"""The compiled ``learned`` agent of Eigen Kweek, and the one dispatch over every compiled agent.

``learned_choice`` is ``agents.learned.LearnedAgent.act`` (without ``sample``) decision
for decision: the seat's observation tensor (``observe_row``, proven equal to the rules
engine's), the shipped network (``gamebag.fast.mlp``), and the best-scored legal action,
ties to the lowest action index as NumPy's ``argmax`` takes them. With an ``abstain``
mask (``learned:abstain=CARD``) it scores only the legal actions the heuristic's
``abstains`` keeps, or all of them when it keeps none, as the Python agent does. It draws
nothing from the game's generator, as the Python agent draws nothing. ``pick`` chooses for any
compiled agent code: ``random`` and ``heuristic`` (``heuristic.choose``) or ``learned``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gamebag.fast.eigen_kweek.heuristic import abstains, choose
from gamebag.fast.eigen_kweek.layout import POLICY_NAMES, W_LEGAL
from gamebag.fast.eigen_kweek.observe import OBSERVATION_SIZE, observe_row
from gamebag.fast.eigen_kweek.policies import menu
from gamebag.fast.mlp import hidden_forward, output_score
from gamebag.fast.rng import helper
from gamebag.fast.weights import S_OUT, Layers, flat_net, widest_hidden

Row = npt.NDArray[np.int32]
Ints = npt.NDArray[np.int64]
UInts = npt.NDArray[np.uint64]
Floats32 = npt.NDArray[np.float32]
Floats64 = npt.NDArray[np.float64]

LEARNED_CODE = len(POLICY_NAMES)
AGENT_NAMES = (*POLICY_NAMES, "learned")


class Net:
    """A network packed for the kernels, with the buffers one kernel call works in."""

    def __init__(self, values: Floats32, shape: Ints) -> None:
        self.values = values
        self.shape = shape

    @classmethod
    def of(cls, layers: Layers) -> Net:
        values, shape = flat_net(layers)
        return cls(values, shape)

    @classmethod
    def none(cls) -> Net:
        """A stand-in for kernels called without a learned seat (never evaluated)."""
        return cls(np.zeros(1, np.float32), np.zeros((1, 4), np.int64))

    def buffers(self) -> Floats64:
        return np.zeros((2, widest_hidden(self.shape)), np.float64)

    def outputs(self) -> int:
        return int(self.shape[-1, S_OUT])


def observation_buffer() -> Floats32:
    return np.zeros(OBSERVATION_SIZE, np.float32)


@helper
def learned_choice(
    s: Row,
    cfg: Ints,
    acts: Ints,
    pays: Ints,
    seat: int,
    abstain: int,
    values: Floats32,
    shape: Ints,
    obs: Floats32,
    buffers: Floats64,
    w: Ints,
) -> int:  # pragma: no cover - compiled
    """The legal action with the highest score for ``seat`` (-1 when the seat does not act),
    among those it does not abstain from when there are any."""
    count = menu(s, cfg, acts, pays, seat, w, W_LEGAL)
    if count == 0:
        return -1
    # Abstaining filters only where some legal action survives it (the heuristic's ``or legal``).
    filtering = False
    if abstain != 0:
        for i in range(count):
            if not abstains(s, acts, seat, w[W_LEGAL + i], abstain):
                filtering = True
                break
    observe_row(s, cfg, seat, obs)
    source = hidden_forward(obs, values, shape, buffers)
    best = -1
    top = np.float32(0.0)
    for i in range(count):
        a = w[W_LEGAL + i]
        if filtering and abstains(s, acts, seat, a, abstain):
            continue
        score = output_score(obs, values, shape, buffers, source, a)
        if best < 0 or score > top or (score == top and a < best):
            best = a
            top = score
    return best


@helper
def pick(
    s: Row,
    cfg: Ints,
    acts: Ints,
    pays: Ints,
    seat: int,
    code: int,
    abstain: int,
    key: np.uint64,
    ctr: UInts,
    w: Ints,
    values: Floats32,
    shape: Ints,
    obs: Floats32,
    buffers: Floats64,
) -> int:  # pragma: no cover - compiled
    """The action of ``seat``'s compiled agent ``code`` (``AGENT_NAMES``; -1 when the seat does not act)."""
    if code == LEARNED_CODE:
        return learned_choice(s, cfg, acts, pays, seat, abstain, values, shape, obs, buffers, w)
    return choose(s, cfg, acts, pays, seat, code, abstain, key, ctr, w)
