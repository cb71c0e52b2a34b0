"""A machine as busy as a loaded CI runner: one spinning process per core, for the span of a block.

Shutdown bounds are built from deadlines, so they must hold however little CPU the process gets; tests
of them run their stop inside ``busy_cores``. Each spinner ends by itself after ``SPIN_LIMIT_SECONDS``
even if the test dies without stopping it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

SPIN_LIMIT_SECONDS = 120
_SPIN = f"import time\nend = time.monotonic() + {SPIN_LIMIT_SECONDS}\nwhile time.monotonic() < end: pass"


@contextmanager
def busy_cores(count: int | None = None) -> Iterator[None]:
    """``count`` processes (default: one per core) spinning until the block ends."""
    spinners = [subprocess.Popen([sys.executable, "-c", _SPIN]) for _ in range(count or os.cpu_count() or 1)]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
        for spinner in spinners:
            spinner.wait()
