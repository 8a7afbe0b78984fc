"""Shared helpers of the pytest suite of the Python module papi (tests/python)."""

import mmap

PAGE = mmap.PAGESIZE


def touch_fresh_pages(n):
    """Write one byte into each of n fresh anonymous pages: exactly n page faults."""
    m = mmap.mmap(-1, n * PAGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    for i in range(n):
        m[i * PAGE] = 1
    m.close()
