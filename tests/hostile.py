"""Hostile look-alikes of integers, strings, sequences, certificates and results.

Each class answers one question falsely, or differently on each asking, the way a
forger would: a tuple whose ``len`` lies, an int that compares equal to anything, an
int whose ``__int__`` is not its value, an object that poses as an int (its
``__class__`` says int) and whose ``__index__`` changes per call, a string whose
``==`` lies, and certificate or result objects whose fields are properties that
count their reads and answer from a script (one value per read, the last repeated).
Used by tests/test_verify_snapshot.py.
"""

from __future__ import annotations

from seprank.linalg.certificates import (
    LowerBoundCertificate,
    RankCertificate,
    UpperBoundCertificate,
)
from seprank.linalg.result import RankResult


class LyingLenTuple(tuple):
    """A tuple whose ``len`` is ``length``, whatever it holds."""

    def __new__(cls, items, length):
        obj = super().__new__(cls, items)
        obj.length = length
        return obj

    def __len__(self):
        return self.length


class LyingLenList(list):
    """A list whose ``len`` is ``length``, whatever it holds."""

    def __init__(self, items, length):
        super().__init__(items)
        self.length = length

    def __len__(self):
        return self.length


class EqLiar(int):
    """An int equal to everything."""

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = int.__hash__


class NeLiar(int):
    """An int different from everything (``!=`` is always true)."""

    def __ne__(self, other):
        return True

    __hash__ = int.__hash__


class LtLiar(int):
    """An int below everything (``<`` and ``<=`` always true, ``>`` and ``>=`` false)."""

    def __lt__(self, other):
        return True

    def __le__(self, other):
        return True

    def __gt__(self, other):
        return False

    def __ge__(self, other):
        return False

    __hash__ = int.__hash__


class IntLiar(int):
    """An int whose ``__int__`` and ``__index__`` answer ``shown`` instead of its value."""

    def __new__(cls, value, shown):
        obj = super().__new__(cls, value)
        obj.shown = shown
        return obj

    def __int__(self):
        return self.shown

    def __index__(self):
        return self.shown


class Chameleon:
    """Poses as an int (``__class__`` is int) and answers ``values`` in turn, one per
    call of ``__int__``/``__index__`` (comparisons ask it again each time)."""

    def __init__(self, *values):
        self.values = list(values)
        self.calls = 0

    @property
    def __class__(self):
        return int

    def _next(self):
        v = self.values[min(self.calls, len(self.values) - 1)]
        self.calls += 1
        return v

    __int__ = __index__ = _next

    def __eq__(self, other):
        return self._next() == other

    def __ne__(self, other):
        return self._next() != other

    def __lt__(self, other):
        return self._next() < other

    def __le__(self, other):
        return self._next() <= other

    def __gt__(self, other):
        return self._next() > other

    def __ge__(self, other):
        return self._next() >= other

    def __hash__(self):
        return 0


class StrLiar(str):
    """A string that equals exactly the strings in ``equals`` (its own text aside)."""

    def __new__(cls, text, equals):
        obj = super().__new__(cls, text)
        obj.equals = frozenset(equals)
        return obj

    def __eq__(self, other):
        return other in self.equals

    def __ne__(self, other):
        return other not in self.equals

    __hash__ = str.__hash__


def scripted(base: type, **fields):
    """An instance of a subclass of ``base`` whose fields are properties answering the
    scripted values in turn (a list per field; the last one repeats). ``obj.reads``
    counts the reads of each field."""

    def prop(name, values):
        def get(self):
            k = self.reads.get(name, 0)
            self.reads[name] = k + 1
            return values[min(k, len(values) - 1)]
        return property(get)

    attrs = {name: prop(name, list(vals)) for name, vals in fields.items()}
    cls = type(f"Scripted{base.__name__}", (base,), attrs)
    obj = object.__new__(cls)
    object.__setattr__(obj, "reads", {})
    return obj


__all__ = ["LyingLenTuple", "LyingLenList", "EqLiar", "NeLiar", "LtLiar", "IntLiar",
           "Chameleon", "StrLiar", "scripted", "LowerBoundCertificate", "UpperBoundCertificate",
           "RankCertificate", "RankResult"]
