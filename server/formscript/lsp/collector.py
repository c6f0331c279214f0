"""The cyclic garbage collector in a server that keeps large analyses alive.

An analysis of a 2,000-entry script keeps about 260,000 objects (the YAML nodes and their
marks, the values, the entries); with the collector left alone, every full collection walks
all of them again, and the analyses of every open document besides: a pause of 170 ms and
more, which lands on whichever open or keystroke allocates at that moment. Yet what an
analysis keeps holds no reference cycle (reference counting frees it when the next version
replaces it: tests/lsp/test_collector.py), so walking it finds nothing.

``Collector.settle`` runs on the lint thread after each lint: it collects the young
generations (the cycles made since the last settle are among them) and freezes what
survives, so later collections walk only what is new; both cost what is new, never what is
kept. Frozen objects are still freed by reference counting; only a cycle formed later among
frozen objects escapes, so every ``RECLAIM_EVERY`` settles one full collection of everything
runs (``reclaimed`` counts them). (Counting the frozen objects to decide when would walk
them all each time: ``gc.get_freeze_count`` is a walk of the list, 170 ms at 10,000 entries.)
"""

from __future__ import annotations

import gc

#: Settles between two full collections (frozen objects included).
RECLAIM_EVERY = 1000


class Collector:
    """When the server's objects are collected and frozen."""

    def __init__(self) -> None:
        self._settled = 0
        #: Full collections run so far.
        self.reclaimed = 0

    def settle(self) -> None:
        """Collect the young generations and freeze what survives them (after a lint, on the
        lint thread); every ``RECLAIM_EVERY`` times, collect everything first."""
        self._settled += 1
        if self._settled % RECLAIM_EVERY == 0:
            gc.unfreeze()
            gc.collect()
            self.reclaimed += 1
        else:
            gc.collect(1)
        gc.freeze()
