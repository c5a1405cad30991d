"""Natural rolls in words: the faces a rule reads whatever the total ("a double 1", "a double of any face").

A roll test names natural rolls that pass, fail or are critical whatever the modifiers
(:class:`rulesbook.dice.RollTest`: ``auto_pass``, ``auto_fail``, ``critical``). An explanation
says which, and a variant may name any set of them — every double, a double 1 or a double 6,
three dice showing 1 — so the words are built from the set itself, never assumed.

Example:
    >>> from rulesbook.dice import TWO_D6, parse_dice
    >>> rolls_text({(1, 1)}, TWO_D6), rolls_text({(v, v) for v in range(1, 7)}, TWO_D6)
    ('a double 1', 'a double of any face')
    >>> rolls_text({(1, 1)}, parse_dice("3D6kl2"))
    'a roll whose 2 kept dice all show 1'
    >>> rolls_text({(6,), (5,)}, parse_dice("D6"))
    'a natural 5 or 6'
    >>> rolls_text({(1, 2), (2, 1), (3, 4)}, TWO_D6)
    'a roll of 1 and 2, or 3 and 4'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rulesbook.dice import DiceExpr, Faces, Reads

__all__ = ["LISTED_ROLLS", "rolls_text"]

LISTED_ROLLS = 6
"""The most rolls listed one by one; a longer set is counted, its first rolls shown."""


def rolls_text(rolls: Iterable[Faces], dice: DiceExpr, reads: Reads = "kept") -> str:
    """The natural rolls ``rolls`` of ``dice`` (read from the dice ``reads`` names) as a noun
    phrase: ``a natural 6``, ``a double 1``, ``a double of any face``, ``a roll whose 3 dice all show 1``,
    ``a roll of 1 and 2, or 3 and 4``; ``no roll`` for none. A roll is a multiset of faces (its
    order does not matter), as :class:`~rulesbook.dice.RollTest` reads it.

    >>> from rulesbook.dice import TWO_D6, parse_dice
    >>> rolls_text({(1, 1), (6, 6)}, TWO_D6), rolls_text(set(), TWO_D6)
    ('a double 1 or 6', 'no roll')
    >>> rolls_text({(v, v, v) for v in range(1, 7)}, parse_dice("3D6"))
    'a roll whose 3 dice all show the same face'
    """
    distinct = sorted({tuple(sorted(r)) for r in rolls})
    if not distinct:
        return "no roll"
    kept = "kept " if reads == "kept" and any(t.keep for t in dice.dice_terms) else ""
    if all(len(r) == 1 for r in distinct):
        return f"a natural {_either(str(r[0]) for r in distinct)}"
    if all(len(set(r)) == 1 for r in distinct) and len({len(r) for r in distinct}) == 1:
        faces = [r[0] for r in distinct]
        count = len(distinct[0])
        sides = set(dice.read_sides(reads))
        every = len(sides) == 1 and faces == list(range(1, sides.pop() + 1))
        if count == 2 and not kept:
            return "a double of any face" if every else f"a double {_either(str(f) for f in faces)}"
        shown = "the same face" if every else _either(str(f) for f in faces)
        return f"a roll whose {count} {kept}dice all show {shown}"
    words = [" and ".join(map(str, r)) if len(r) == 2 else "-".join(map(str, r)) for r in distinct]
    if len(words) > LISTED_ROLLS:
        return f"one of {len(words)} rolls of the {kept}dice ({'; '.join(words[:LISTED_ROLLS])}; …)"
    return f"a roll of {_either(words, comma=any(' and ' in w for w in words))}"


def _either(words: Iterable[str], *, comma: bool = False) -> str:
    """``1``, ``1 or 6``, ``1, 2 or 6`` (``comma``: ``1 and 2, or 3 and 4``, as the items hold
    ``and``)."""
    items: Sequence[str] = list(words)
    if len(items) == 1:
        return items[0]
    joint = ", or " if comma else " or "
    return ", ".join(items[:-1]) + joint + items[-1]
