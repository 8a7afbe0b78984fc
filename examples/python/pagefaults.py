#!/usr/bin/env python3
"""Count the page faults of touching N fresh pages from Python (papi_python(3)).

  python3 pagefaults.py [N]      prints "N pages: F page faults" (F = N: one per page)"""

import mmap
import sys

import papi


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    with papi.EventSet(["perf::PAGE-FAULTS", "perf::TASK-CLOCK"]) as es:
        m = mmap.mmap(-1, n * mmap.PAGESIZE)
        for i in range(n):
            m[i * mmap.PAGESIZE] = 1          # one page fault per fresh page
    print("%d pages: %d page faults" % (n, es.values_dict()["perf::PAGE-FAULTS"]))
    try:
        papi.EventSet(["perf::NO-SUCH-EVENT"])
    except papi.PapiError as e:              # the code and the whole reason
        print("PapiError %d: %s" % (e.code, e.detail))


if __name__ == "__main__":
    main()
