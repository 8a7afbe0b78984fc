#!/usr/bin/env python3
"""bench_read.py: the cost of PAPI_read through the Python module papi, ns per call.

  PYTHONPATH=build/python /usr/bin/python3 bench/python/bench_read.py [--rounds N] [--calls N]

Rows, interleaved round by round (ABC, CBA, ...) so that a load change hits all alike:
  EventSet.read()        the module's read (one ctypes call, a list of the values)
  lib.PAPI_read (ctypes) the bare ctypes call with a preallocated buffer
  ctypes floor           a ctypes call that does nothing (PAPI_is_initialized)
Median over rounds of the mean of N calls; the goal: EventSet.read within 2000 ns."""

import argparse
import statistics
import time

import papi

GOAL_NS = 2000


def timed(func, calls):
    t0 = time.perf_counter_ns()
    for _ in range(calls):
        func()
    return (time.perf_counter_ns() - t0) / calls


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=101)
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--events", default="perf::PAGE-FAULTS",
                    help="comma-separated events of the set (default perf::PAGE-FAULTS)")
    args = ap.parse_args()
    es = papi.EventSet(args.events.split(",")).start()
    raw_read, handle, buf = papi.lib.PAPI_read, es.handle, es._buffer
    rows = {"EventSet.read()": es.read,
            "lib.PAPI_read (ctypes)": lambda: raw_read(handle, buf),
            "ctypes floor": papi.lib.PAPI_is_initialized}
    samples = {k: [] for k in rows}
    order = list(rows)
    for r in range(args.rounds):
        for name in (order if r % 2 == 0 else order[::-1]):
            samples[name].append(timed(rows[name], args.calls))
    es.stop()
    print("events: %s; %d rounds of %d calls; ns per call (median of rounds)"
          % (args.events, args.rounds, args.calls))
    floor = statistics.median(samples["ctypes floor"])
    for name in order:
        med = statistics.median(samples[name])
        print("  %-24s %8.1f ns  (%.2fx the ctypes floor)" % (name, med, med / floor))
    read = statistics.median(samples["EventSet.read()"])
    print("goal: EventSet.read within %d ns: %s (%.1f ns)"
          % (GOAL_NS, "met" if read <= GOAL_NS else "NOT met", read))
    return 0 if read <= GOAL_NS else 1


if __name__ == "__main__":
    raise SystemExit(main())
