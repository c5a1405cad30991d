"""The work an engine does, in the units its cost model predicts (:mod:`~rulesbook.systems.wh40k.attack.cost`):
big-integer products (:func:`product_work`), big-by-small products (:func:`step_work`), numpy
calls (:data:`CALL_WORK`), and the tally with its hard limit (:class:`Work`) that stops any
computation the prediction let through by mistake.

Example:
    >>> product_work(1, 10 * LOG2_10)   # one product of two 10-digit integers
    1038.45...
"""

from __future__ import annotations

import time

from rulesbook.errors import RulesbookError

__all__ = [
    "CALL_WORK",
    "KARATSUBA",
    "LOG2_10",
    "OP_WORK",
    "Work",
    "WorkLimitExceeded",
    "product_work",
    "step_work",
]

LOG2_10 = 3.321928094887362
"""Bits per decimal digit."""


KARATSUBA = 1.585
"""The exponent of CPython's big-integer product (Karatsuba, log2 3) in the digits."""

OP_WORK = 1000.0
"""The fixed cost of one Python-level integer operation (the loop, the indexing, the object),
in work units: about 75 ns, what a product of two 1,000-digit integers' digits cost beyond it.
Without it the units under-counted small-integer work by up to 5x (issue 15)."""


CALL_WORK = 400.0
"""The fixed cost of one numpy operation, in element operations (about 1 µs on the build
machine; one element operation is about 2.5 ns)."""


def product_work(products: float, bits: float) -> float:
    """Work of ``products`` big × big integer products of ``bits`` bits each (Karatsuba:
    digits^1.585, plus :data:`OP_WORK` each), in units of 70-260 ps on the build machine (see ``cost.WORK_LIMIT``).

    >>> product_work(1, 10 * LOG2_10)   # one product of two 10-digit integers
    1038.45...
    """
    return products * (float((bits / LOG2_10) ** KARATSUBA) + OP_WORK)


def step_work(products: float, bits: float) -> float:
    """Work of ``products`` big × small integer products (linear in the digits, plus
    :data:`OP_WORK` each).

    >>> step_work(3, 10 * LOG2_10)
    3030.0
    """
    return products * (bits / LOG2_10 + OP_WORK)


class WorkLimitExceeded(RulesbookError):
    """A computation ran past its hard work limit (the cost model under-predicted it)."""


class Work:
    """The work an engine does, tallied as it goes, with an optional hard limit: the check
    inside the loops that stops any computation the cost model let through by mistake.

    >>> w = Work(limit=10.0)
    >>> w.add(8.0); w.done
    8.0
    >>> w.add(5.0)
    Traceback (most recent call last):
    ...
    rulesbook.systems.wh40k.attack.work.WorkLimitExceeded: the computation passed its work limit (13 > 10)
    """

    __slots__ = ("deadline", "done", "limit")

    def __init__(self, limit: float | None = None, seconds: float | None = None) -> None:
        self.done = 0.0
        self.limit = limit
        self.deadline = None if seconds is None else time.monotonic() + seconds

    def add(self, amount: float) -> None:
        """Count ``amount`` of work; raise :class:`WorkLimitExceeded` past the limit (or the
        deadline, a wall-clock backstop ``seconds`` after the start)."""
        self.done += amount
        if self.limit is not None and self.done > self.limit:
            raise WorkLimitExceeded(
                f"the computation passed its work limit ({self.done:.3g} > {self.limit:.3g})"
            )
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise WorkLimitExceeded("the computation passed its time limit")
