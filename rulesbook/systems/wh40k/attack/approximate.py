"""The allocation engine's algorithm in floating point, for inputs whose exact answer is too big.

The exact engine (:mod:`~rulesbook.systems.wh40k.attack.engine`) carries integer weights over one common denominator; every
packet multiplies that denominator, so 200 attacks with random Damage against 40 many-wound
models would need integers of tens of thousands of digits (seconds to minutes of work).
:func:`resolve_float` runs the **same** algorithm — the same :func:`~rulesbook.systems.wh40k.attack.engine.plan`, the same
per-attack outcomes, the same packet transition tables, the same convolution of the attacks,
the same order of applying packets and the same Horner scheme for Devastating Wounds — on
vectors of float64 probabilities (numpy) instead. Its answer is labelled approximate wherever it
is shown; ``tests/wh40k/test_approximate.py`` checks it agrees with the exact engine to 1e-12 on
inputs both can do.

Example:
    >>> from rulesbook.dice import parse_dice
    >>> weapon = Weapon(name="bolt rifle", attacks=parse_dice("10"), skill=3, strength=4,
    ...                 ap=-1, damage=parse_dice("1"))
    >>> r = resolve_float([weapon], Target(toughness=4, save=3, wounds=1, models=10))
    >>> round(r.mean_wounds_lost, 12)   # exactly 5/3
    1.666666666667
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from rulesbook.systems.wh40k.attack.engine import (
    ApproximateResult,
    PacketTable,
    WeaponStep,
    plan,
    weapon_step,
)
from rulesbook.systems.wh40k.attack.rolls import DEFAULT_SITUATION, Situation
from rulesbook.systems.wh40k.attack.weapons import Target, Weapon
from rulesbook.systems.wh40k.attack.work import CALL_WORK, Work
from rulesbook.systems.wh40k.choices import CHOICES, Wh40kChoices

__all__ = ["float_packet", "resolve_float"]

type _Floats = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class _FloatPacket:
    """A packet's transition table as flat numpy arrays: ``out = bincount(dst, u[src] * p)``."""

    src: npt.NDArray[np.intp]
    dst: npt.NDArray[np.intp]
    p: _Floats
    size: int

    def apply(self, u: _Floats, work: Work) -> _Floats:
        work.add(2 * CALL_WORK + 2 * len(self.p))
        return np.bincount(self.dst, weights=u[self.src] * self.p, minlength=self.size)


@cache
def float_packet(packet: PacketTable) -> _FloatPacket:
    """The float form of an exact packet table (the same moves, weights divided once)."""
    src, dst, w = [], [], []
    for lost, row in enumerate(packet.moves):
        for d, weight in row:
            src.append(lost)
            dst.append(lost + d)
            w.append(weight)
    return _FloatPacket(
        np.array(src, dtype=np.intp),
        np.array(dst, dtype=np.intp),
        np.array(w, dtype=np.float64) / packet.den,
        len(packet.moves),
    )


def _counts(
    per_attack: Mapping[tuple[int, int], int],
    den: int,
    attacks: Sequence[tuple[int, float]],
    merge: bool,
    work: Work,
) -> _Floats:
    """Packets of all attacks of a weapon as a 2-D array P[n, m] (the exact engine's
    ``_counts``, convolving one attack at a time)."""
    kernel: dict[tuple[int, int], float] = {}
    for (n, m), w in per_attack.items():
        key = (n + m, 0) if merge else (n, m)
        kernel[key] = kernel.get(key, 0.0) + w / den
    top = max(a for a, _ in attacks)
    size_n = max(n for n, _ in kernel) * top + 1
    size_m = max(m for _, m in kernel) * top + 1
    a_p = dict(attacks)
    out = np.zeros((size_n, size_m))
    acc = np.zeros((size_n, size_m))
    acc[0, 0] = 1.0
    for k in range(top + 1):
        if k in a_p:
            out += a_p[k] * acc
            work.add(CALL_WORK + size_n * size_m)
        if k < top:
            nxt = np.zeros((size_n, size_m))
            for (n, m), p in kernel.items():
                nxt[n:, m:] += p * acc[: size_n - n, : size_m - m]
            work.add(len(kernel) * (CALL_WORK + size_n * size_m))
            acc = nxt
    return out


def _apply_counts(
    state: dict[tuple[int, ...], _Floats],
    counts: _Floats,
    packet: _FloatPacket,
    keep_pending: bool,
    work: Work,
) -> dict[tuple[int, ...], _Floats]:
    """For each state vector v: sum over (n, m) of P(n, m) P^n v, filed under pending + (m,)."""
    if not keep_pending:
        counts = counts.sum(axis=1, keepdims=True)
    rows = [n for n in range(counts.shape[0]) if counts[n].any()]
    top = rows[-1]
    out: dict[tuple[int, ...], _Floats] = {}
    for key, v in state.items():
        sums = np.zeros((counts.shape[1], len(v)))
        u = v
        for n in range(top + 1):
            if counts[n].any():
                sums += np.outer(counts[n], u)
                work.add(CALL_WORK + sums.size)
            if n < top:
                u = packet.apply(u, work)
        for m in range(counts.shape[1]):
            if sums[m].any():
                new_key = (*key, m) if keep_pending else key
                out[new_key] = out[new_key] + sums[m] if new_key in out else sums[m]
    return out


def _horner(by_m: Mapping[int, _Floats], packet: _FloatPacket, work: Work) -> _Floats:
    """sum over m of Q^m v_m, by Horner's scheme."""
    top = max(by_m)
    w = by_m[top]
    for m in range(top - 1, -1, -1):
        w = packet.apply(w, work)
        if m in by_m:
            w = w + by_m[m]
            work.add(CALL_WORK + len(w))
    return w


def resolve_float(
    weapons: Sequence[Weapon],
    target: Target,
    situation: Situation = DEFAULT_SITUATION,
    choices: Wh40kChoices = CHOICES,
    *,
    limit: float | None = None,
    seconds: float | None = None,
) -> ApproximateResult:
    """:func:`~rulesbook.systems.wh40k.attack.engine.resolve` in floating point: the same plan and steps on float64 vectors.

    ``limit`` (element operations) or ``seconds`` stop a computation that runs past them with
    :class:`~rulesbook.systems.wh40k.attack.engine.WorkLimitExceeded`.
    """
    work = Work(limit, seconds)
    total = target.total_wounds
    start = np.zeros(total + 1)
    start[0] = 1.0
    state: dict[tuple[int, ...], _Floats] = {(): start}
    pending: list[_FloatPacket] = []
    steps: list[WeaponStep] = []
    for step in plan(weapons, target, situation, choices):
        attacks = [(a, float(p)) for a, p in step.attacks]
        parts = [(float(p), _counts(o.weights, o.den, attacks, step.merge, work)) for p, o in step.mix]
        counts = np.zeros(tuple(max(c.shape[i] for _, c in parts) for i in (0, 1)))
        for p, c in parts:
            counts[: c.shape[0], : c.shape[1]] += p * c
        state = _apply_counts(state, counts, float_packet(step.normal), step.keep, work)
        if step.keep:
            pending.append(float_packet(step.dev))
        steps.append(weapon_step(step, target, choices))
    for packet in pending:
        grouped: dict[tuple[int, ...], dict[int, _Floats]] = {}
        for key, vec in state.items():
            grouped.setdefault(key[1:], {})[key[0]] = vec
        state = {rest: _horner(by_m, packet, work) for rest, by_m in grouped.items()}
    final = state[()]
    lost = np.arange(total + 1)
    by_model = np.bincount(lost // target.wounds, weights=final, minlength=target.models + 1)
    return ApproximateResult(
        target=target,
        wounds_lost=tuple(float(x) for x in final),
        models_destroyed=tuple(float(x) for x in by_model),
        mean_wounds_lost=float(lost @ final),
        mean_models_destroyed=float(np.arange(target.models + 1) @ by_model),
        p_unit_destroyed=float(final[-1]),
        steps=tuple(steps),
        work=work.done,
    )
