"""Peak memory of a block of code, measured from outside it: :class:`PeakRSS`."""
from __future__ import annotations

import ctypes
import os
import threading

__all__ = ["PeakRSS"]


class PeakRSS:
    """Context manager: the largest growth of this process's resident memory (MiB) over its
    value on entry, sampled every ``interval`` seconds by a background thread from
    ``/proc/self/statm`` (Linux; NaN elsewhere).

    It counts every allocation (NumPy, compiled solvers' buffers) at no cost to the measured
    code, but misses peaks shorter than the interval.  On entry glibc's ``malloc_trim`` returns
    the memory freed earlier in the process to the system (else its reuse would not show as
    growth); memory another allocator keeps (a JIT's arena) can still hide part of the peak.

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.experiments._memory import PeakRSS
    >>> with PeakRSS(0.001) as m:
    ...     a = np.ones(20 * 2**20 // 8); a += 1; del a
    >>> m.peak_mib >= 0
    True
    """

    def __init__(self, interval=0.005):
        self.interval, self.peak_mib = interval, float("nan")

    @staticmethod
    def _rss():
        try:
            with open("/proc/self/statm") as f:
                return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError):
            return None

    def _watch(self):
        while not self._stop.wait(self.interval):
            self._max = max(self._max, self._rss())

    def __enter__(self):
        try:        # glibc keeps freed memory resident for reuse: return it first, so reuse shows as growth
            ctypes.CDLL("libc.so.6").malloc_trim(0)
        except (OSError, AttributeError):
            pass
        self._start = self._max = self._rss()
        if self._start is not None:
            self._stop = threading.Event()
            self._thread = threading.Thread(target=self._watch, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc):
        if self._start is not None:
            self._stop.set()
            self._thread.join()
            self._max = max(self._max, self._rss())
            self.peak_mib = (self._max - self._start) / 2**20
        return False
