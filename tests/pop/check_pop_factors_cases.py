#!/usr/bin/env python3
"""check_pop_factors_cases.py CASES POP_FACTORS_PY: every efficiency's golden cases
(pop_factors_cases.txt, which test_pop_factors runs against the C formulas in
src-c/common/pop_factors.c) against papi_report's pop_factors.py: MPI, host/device, OpenMP
per region, from summed sums and over a run's regions, and hybrid; null where a factor
cannot be formed. Plain Python (the module alone). Exit 0 pass, 1 fail."""
import importlib.util
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from case_file import cases as case_lines  # noqa: E402

FAILURES = []
MPI = ("parallel", "load_balance", "communication", "serialisation", "transfer")
DEVICE = ("offload", "device_parallel", "device_load_balance", "device_communication",
          "device_orchestration")
OMP = ("serialization", "load_balance", "scheduling", "parallel")


def load(path):
    spec = importlib.util.spec_from_file_location("pop_factors", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def numbers(text):
    return [] if text.strip() == "-" else [None if t == "null" else float(t)
                                           for t in text.split()]


def expect(where, got, want_text):
    want = numbers(want_text)
    if len(got) != len(want):
        FAILURES.append("%s: %d values, want %d" % (where, len(got), len(want)))
        return
    for i, (g, w) in enumerate(zip(got, want)):
        ok = g is None if w is None else (g is not None and abs(g - w) <= 1e-12 * max(abs(w), 1e-300))
        if not ok:
            FAILURES.append("%s: factor %d = %r, want %r" % (where, i, g, w))


def ranks(pf, text):
    p = pf.PopIn()
    for r in text.split(";"):
        v = numbers(r)
        if len(v) >= 3:
            p.add(*v[:3])
        if len(v) == 6:
            p.add_device(*v[3:])
    return p.factors()


def region(pf, text, sums=None):
    v = numbers(text)
    if sums is not None:
        sums.parallel_ns += v[0]
    return pf.omp_region([int(u) for u in v[1:]], int(v[0]), sums)


def run_case(pf, where, f):
    kind = f[0]
    if kind == "mpi" and len(f) == 3:
        got = ranks(pf, f[1])
        expect(where, [got[k] for k in MPI], f[2])
    elif kind == "device" and len(f) == 3:
        got = ranks(pf, f[1])
        expect(where, [got[k] for k in DEVICE], f[2])
    elif kind == "omp_region" and len(f) == 3:
        got = region(pf, f[1])
        expect(where, [got[k] for k in OMP[1:]], f[2])
        if got["serialization"] is not None:
            FAILURES.append(where + ": a region's serialization formed")
    elif kind == "omp_sums" and len(f) == 4:
        v = numbers(f[2])
        got = pf.omp_factors(pf.OmpIn(*v[:4]), v[4], f[1] == "each")
        expect(where, [got[k] for k in OMP], f[3])
    elif kind == "omp_run" and len(f) == 4:
        sums = pf.OmpIn()
        for r in f[1].split(";"):
            region(pf, r, sums)
        got = pf.omp_factors(sums, float(f[2]), False)
        expect(where, [got[k] for k in OMP], f[3])
    elif kind == "hybrid" and len(f) == 3:
        expect(where, [pf.hybrid(*numbers(f[1]))], f[2])
    else:
        FAILURES.append("%s: kind %r with %d fields unknown" % (where, kind, len(f)))
        return 0
    return 1


def main():
    if len(sys.argv) != 3:
        print("usage: check_pop_factors_cases.py CASES POP_FACTORS_PY")
        return 2
    pf = load(sys.argv[2])
    cases = sum(run_case(pf, "line %d" % lineno, fields)
                for lineno, fields in case_lines(sys.argv[1]))
    if cases < 25:
        FAILURES.append("%d cases read, 25 at least expected" % cases)
    for msg in FAILURES:
        print("FAIL", msg)
    print("%d cases: %s" % (cases, "FAILED" if FAILURES else "PASSED"))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
