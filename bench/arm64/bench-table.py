#!/usr/bin/env python3
"""bench-table.py: the tables of bench/README.md from the output of run-bench.sh.

    bench/arm64/bench-table.py RUN.txt [RUN.txt ...]

Each cell is the least of the runs given, for each figure on its own: "all (user)", all =
every guest instruction (CNTVCT), user = the PMU's user count. A floor is measured in
each library's process: its cell is the least of them. Prints the path table, the
ratios of ours to PAPI 7.0 and 7.2, and the thread table (per call, and relative to 1
thread)."""
import re
import sys

ROWS = [  # README row, bench path, floor path at ua=0, floor path at ua=1
    ("PAPI_read, 1 event", "read_1", "floor_read_syscall_1", "floor_read_user_1"),
    ("PAPI_read, 4 events", "read_4", "floor_read_syscall_4", "floor_read_user_4"),
    ("PAPI_accum, 1 event", "accum_1", None, None),
    ("PAPI_reset, 1 event", "reset_1", None, None),
    ("PAPI_stop + PAPI_start, 1 event", "startstop_1", "floor_startstop_1", "floor_startstop_1"),
    ("multiplexed PAPI_read, 8 events", "mpx_read_8", "floor_mpx_read_8", "floor_mpx_read_8"),
    ("multiplexed PAPI_read, 16 events", "mpx_read_16", "floor_mpx_read_16", "floor_mpx_read_16"),
    ("multiplexed stop + start, 8 events", "mpx_startstop_8", "floor_mpx_startstop_8",
     "floor_mpx_startstop_8"),
    ("multiplexed stop + start, 16 events", "mpx_startstop_16", "floor_mpx_startstop_16",
     "floor_mpx_startstop_16"),
    ("PAPI_hl_region_begin + end", "region_begin_end", "floor_region_begin_end",
     "floor_region_begin_end"),
    ("PAPI_flops (3.5)", "flops_35", None, None),
    ("PAPI_flops_rate", "flops_rate", None, None),
    ("PAPIF_read, 1 event (fpapi.h)", "fortran_read_1", None, None),
    ("PAPIF_read, 1 event (use papi)", "fortran_read_module_1", None, None),
    ("PAPIF_flops (3.5)", "fortran_flops_35", None, None),
    ("PAPIF_flops_rate", "fortran_flops_rate", None, None),
    ("overflow dispatch, per signal", "overflow_per_signal", "floor_overflow_per_signal",
     "floor_overflow_per_signal"),
    ("PAPI_profil, per sample, signal route", "profil_per_sample_signal",
     "floor_overflow_per_signal", "floor_overflow_per_signal"),
    ("PAPI_profil, per sample (ours: ring)", "profil_per_sample",
     "floor_profil_ring_per_sample", "floor_profil_ring_per_sample"),
]
LIBS = [("ours", "ours"), ("papi7.0", "PAPI 7.0"), ("papi7.2", "PAPI 7.2")]
THREADS = [1, 2, 4, 16, 64]


def least(table, key, values):
    old = table.get(key)
    table[key] = values if old is None else [min(a, b) for a, b in zip(old, values)]


def parse(paths):
    """{(label, ua, path): [all, user]}, {(label, ua, path): 'failed (-7)'}."""
    costs, failed = {}, {}
    line_re = re.compile(r"^BENCH (\S+) ua=(\d) (\S+) (.*)$")
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = line_re.match(line.strip())
                if not m:
                    continue
                label, ua, what, rest = m.group(1), int(m.group(2)), m.group(3), m.group(4).split()
                if what.startswith("threads_"):
                    # threads_N read_1 ALL USER region_begin_end ALL USER
                    least(costs, (label, ua, what), [float(rest[1]), float(rest[2]),
                                                     float(rest[4]), float(rest[5])])
                elif rest and rest[0] == "failed":
                    failed[(label, ua, what)] = "failed (%s)" % rest[1]
                elif len(rest) >= 2 and what != "cntvct":
                    least(costs, (label, ua, what), [float(rest[0]), float(rest[1])])
    return costs, failed


def cell(costs, failed, key):
    if key in failed:
        return failed[key]
    c = costs.get(key)
    return "%.0f (%.0f)" % (c[0], c[1]) if c else None


def floor_cell(costs, ua, path):
    found = [costs[(lib, ua, path)] for lib, _ in LIBS if (lib, ua, path) in costs]
    if not path or not found:
        return ""
    return "%.0f (%.0f)" % (min(c[0] for c in found), min(c[1] for c in found))


def path_table(costs, failed):
    head = ["path", "floor ua=0", "floor ua=1"]
    head += ["%s ua=%d" % (name, ua) for _, name in LIBS for ua in (0, 1)]
    print("| " + " | ".join(head) + " |")
    print("|" + " --- |" * len(head))
    for row, path, f0, f1 in ROWS:
        cells = [row, floor_cell(costs, 0, f0), floor_cell(costs, 1, f1)]
        for lib, _ in LIBS:
            for ua in (0, 1):
                c = cell(costs, failed, (lib, ua, path))
                cells.append(c if c else "-")
        print("| " + " | ".join(cells) + " |")


def ratios(costs):
    print("\nours / PAPI 7.0 and ours / PAPI 7.2 (all), ua=0 and ua=1:")
    for row, path, _, _ in ROWS:
        out = []
        for lib, name in LIBS[1:]:
            for ua in (0, 1):
                o, p = costs.get(("ours", ua, path)), costs.get((lib, ua, path))
                if o and p:
                    out.append("%s ua=%d %.2f" % (name, ua, o[0] / p[0]))
        if out:
            print("  %s: %s" % (row, ", ".join(out)))


def thread_table(costs):
    print("\n| threads | " + " | ".join(str(n) for n in THREADS) + " |")
    print("|" + " --- |" * (len(THREADS) + 1))
    for lib, name in LIBS:
        for ua in (1, 0):
            for idx, what in ((0, "PAPI_read"), (2, "region begin+end")):
                base = costs.get((lib, ua, "threads_1"))
                if not base:
                    continue
                cells = ["%.0f (%.0f)" % (base[idx], base[idx + 1])]
                for n in THREADS[1:]:
                    c = costs.get((lib, ua, "threads_%d" % n))
                    cells.append("%.2f" % (c[idx] / base[idx]) if c else "-")
                print("| %s %s, ua=%d | %s |" % (name, what, ua, " | ".join(cells)))


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    costs, failed = parse(argv[1:])
    path_table(costs, failed)
    ratios(costs)
    thread_table(costs)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
