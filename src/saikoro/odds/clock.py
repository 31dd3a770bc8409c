"""The clock the odds' time budgets read.

Every budget (``seconds=``, the exact methods' half of it) reads :func:`now`, so a test can
put a clock that counts work in its place: each read one tick, the reads coming every 64
multisets, 256 sequences or one Monte Carlo run. The budget is then a budget of work and
the test's verdict the same on any machine, however busy.
"""

from __future__ import annotations

import time
from collections.abc import Callable

#: Seconds, as ``time.monotonic``; replaced by tests (see tests/odds/test_repeat_and_time_budget.py).
now: Callable[[], float] = time.monotonic
