#!/usr/bin/env python3
"""The critical path and each wait's root causes in a finished job's OTF2 archive (issue 72
item 5, the OTF2 part): mpi_root_causes's chain (rank 0's 0.3 s of extra before a
pipeline of MPI_Recv on ranks 1-3) run with PAPI_MPI_TRACE=otf2 PAPI_MPI_KEEP_EVENT_LOG=1,
then `papi_report --merge-trace OUT.otf2 DIR/papi_mpi_trace/traces.otf2` writes a new
archive; `papi_report DIR` of the same logs gives the tables it must agree with:
- otf2-print reads the new archive (events and definitions) without a warning, and its
  events, less the critical path's location and the added attributes, are the job's
  archive's, line for line; its clock properties, properties (PAPI_COMPAT::DROPPED_RECORDS),
  creator and description the job's archive's;
- the location "critical path" (its own location group): ENTER/LEAVE pairs in time order,
  none overlapping, each region an activity with attributes rank and site; per activity
  the parts' time equals mpi_critical_path.csv's path_s (1e-4 s: the parts lie on the
  trace's axis, the table on the logs', tens of ppm apart) on its ranks and site, the total
  papi_report's critical path line (1e-4 s, the JSON merge's tolerance); extra once, rank
  0's, its ENTER and LEAVE the region's own (2 ns), its site the MPI_Send after it;
- the waits: every wait has wait_kind and wait_s (one with no cause found, its time the
  residual, those alone): every row of mpi_root_causes.csv's waited_s is the sum of wait_s
  over the ENTERs of its ranks, call and kind (1e-6 s); a row's direct and propagated costs are the
  sums over those waits where its cause is the largest (1e-6 s; a row that is the largest
  cause of none but some of whose waits list other causes cannot be seen, and is left);
  ranks 1-3's MPI_Recv caused most by rank 0's extra (rank 1 directly, 2-3 propagated);
  the explained seconds (direct + propagated + other_causes_s) add up to papi_report's
  "explained" figure (1e-5 s);
- refused, nothing written: an OUT that exists, an archive whose logs are gone (exit 2),
  papi_report without python3-otf2 (exit 1).
python3-otf2 or otf2-print missing: SKIPPED (exit 77), a failure under CI=true.
Usage: check_mpi_trace_otf2_causes.py --mpirun M --program PROG --keep-log SO --otf2-print P"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

import check_mpi_root_causes as rc
from mpi_check import check, verdict

PATH_NAME = "critical path"


def need(what, why):
    """A missing tool: a failure under CI=true (the dependency step installs it), else a skip."""
    if os.environ.get("CI", "").lower() in ("true", "1", "yes"):
        check(False, f"{what} missing under CI=true: {why}")
        sys.exit(verdict())
    print(f"SKIPPED: {what} missing: {why}")
    sys.exit(77)


def otf2_print(path, *opts):
    """otf2-print's output of the archive at path; no warning or error on stderr."""
    p = subprocess.run([ARGS.otf2_print] + list(opts) + [path], capture_output=True, text=True,
                       timeout=120)
    check(p.returncode == 0 and not p.stderr.strip(),
          f"otf2-print {' '.join(opts)} {os.path.basename(path)}: exit {p.returncode}, "
          f"stderr {p.stderr.strip()[:300]!r}")
    return p.stdout


def read(otf2, path):
    """(slices per location name: [[region, t0, t1, enter attributes by name]], the
    locations' groups by name, the ns per tick) of the archive at path."""
    out, open_, groups = {}, {}, {}
    with otf2.reader.open(path) as r:
        for loc in r.definitions.locations:
            groups[loc.name] = loc.group.name
        for loc, e in r.events:
            if isinstance(e, otf2.events.Enter):
                attrs = {a.name: v for a, v in (e.attributes or {}).items()}
                open_.setdefault(loc.name, []).append([e.region.name, e.time, None, attrs])
            elif isinstance(e, otf2.events.Leave):
                s = open_[loc.name].pop()
                check(s[0] == e.region.name, f"{loc.name}: LEAVE {e.region.name} closes {s[0]}")
                s[2] = e.time
                out.setdefault(loc.name, []).append(s)
        res = r.definitions.clock_properties.timer_resolution
    return out, groups, 1e9 / res


def strip_added(text):
    """otf2-print's events less the critical path's location and the added attributes."""
    lines, loc = [], None
    for line in text.splitlines():
        if "ADDITIONAL ATTRIBUTES" in line:
            continue
        fields = line.split()
        if len(fields) > 2 and fields[0].isupper() and fields[1].isdigit():
            loc = fields[1]
        lines.append((loc, line))
    return lines


def events_unchanged(anchor, out, path_ref):
    """The new archive's events, less the critical path's and the attributes added, are the
    job's archive's, line for line (otf2-print)."""
    old = [line for _l, line in strip_added(otf2_print(anchor))]
    new = [line for loc, line in strip_added(otf2_print(out)) if loc != path_ref]
    check(old == new and len(old) > 50,
          f"otf2: the job's {len(old)} event lines unchanged in the new archive ({len(new)})")
    otf2_print(out, "-G")  # the definitions read without a warning


def archive_facts(otf2, path):
    """(clock properties, properties, creator, description) of the archive at path."""
    import _otf2
    with otf2.reader.open(path) as r:
        h, c = r.handle, r.definitions.clock_properties
        return ((c.timer_resolution, c.global_offset, c.trace_length, c.realtime_timestamp),
                {n: _otf2.Reader_GetProperty(h, n) for n in _otf2.Reader_GetPropertyNames(h)},
                _otf2.Reader_GetCreator(h), _otf2.Reader_GetDescription(h))


def path_checks(slices, groups, table, said):
    """The critical path's location against mpi_critical_path.csv and papi_report's line."""
    check(groups.get(PATH_NAME) == PATH_NAME,
          f"otf2: a location \"{PATH_NAME}\" in a group of its own ({groups.get(PATH_NAME)})")
    parts = sorted(slices.get(PATH_NAME, []), key=lambda s: s[1])
    check(len(parts) > 3, f"otf2: the critical path's {len(parts)} parts")
    check(all(a[2] <= b[1] for a, b in zip(parts, parts[1:])),
          "otf2: the critical path's parts in time order, none overlapping")
    check(all("rank" in s[3] and "site" in s[3] for s in parts),
          "otf2: every part's ENTER has the attributes rank and site")
    total = sum(s[2] - s[1] for s in parts) * 1e-9
    print(f"otf2: critical path {total:.9f} s over {len(parts)} parts; papi_report DIR "
          f"{said:.6f} s")
    check(abs(total - said) <= 1e-4, f"otf2: the parts' total {total:.9f} s is papi_report's "
          f"critical path {said:.6f} s +- 1e-4 s")
    by = {}
    for name, t0, t1, a in parts:
        cell = by.setdefault(activity_key(name), [0, set(), set()])
        cell[0] += t1 - t0
        cell[1].add(a["rank"])
        cell[2].add(a["site"])
    for row in table:
        got = by.pop(activity_key(row["activity"]), [0, set(), set()])
        ranks = set()
        for run in row["path_ranks"].split(","):
            lo, _, hi = run.partition("-")
            ranks |= set(range(int(lo), int(hi or lo) + 1))
        print(f"otf2: path {row['activity']!r} ranks {sorted(got[1])}, sites {sorted(got[2])}: "
              f"{got[0] * 1e-9:.9f} s; the table {row['path_s']} s, ranks {row['path_ranks']}, "
              f"site {row['site']!r}")
        # a part of a few us where two ranks' conversions meet is cut (trace_causes)
        check(abs(got[0] * 1e-9 - float(row["path_s"])) <= 1e-4 and got[1] <= ranks and
              (row["site"] in got[2] or float(row["path_s"]) < 1e-4),
              f"otf2: the path's {row['activity']} is the table's (time, ranks, site)")
    check(not by, f"otf2: no part the table lacks {sorted(by)}")
    extra = [s for s in parts if s[0] == "extra"]
    region = [s for s in slices.get(rank0_location(groups), []) if s[0] == "extra"]
    if check(len(extra) == 1 and extra[0][3]["rank"] == 0 and len(region) == 1,
             "otf2: the critical path passes through rank 0's extra once"):
        print(f"otf2: extra on the path {extra[0][1]} .. {extra[0][2]} ns, the region "
              f"{region[0][1]} .. {region[0][2]} ns")
        check(abs(extra[0][1] - region[0][1]) <= 2 and abs(extra[0][2] - region[0][2]) <= 2,
              "otf2: the path's extra is the region's own ENTER and LEAVE (2 ns)")
        site = "mpi_root_causes.c:%d" % rc.source_line("MPI_Send(&token")
        check(extra[0][3]["site"] == site, f"otf2: extra's site {extra[0][3]['site']}, want {site}")


def activity_key(name):
    """A path part's activity as the table keys it: compute outside any region is one
    activity, the table naming it by the call that ends its longest part on the path."""
    return "compute before (a call)" if name.startswith("compute before ") else name


def rank0_location(groups):
    return next((n for n, g in groups.items() if g.startswith("rank 0 (pid")), None)


def rank_of(groups, loc):
    m = re.match(r"rank (\d+) \(pid", groups.get(loc, ""))
    return int(m.group(1)) if m else None


def explained_s(a):
    """The seconds of a wait its causes made (a wait with no cause found: none)."""
    return a.get("direct_s", 0) + a.get("propagated_s", 0) + a.get("other_causes_s", 0)


def wait_checks(slices, groups, rows, explained):
    """The waits' attributes against mpi_root_causes.csv and the explained figure."""
    waits = [(rank_of(groups, loc), s) for loc, lst in slices.items() for s in lst
             if "wait_kind" in s[3]]
    check(len(waits) >= 3, f"otf2: {len(waits)} waiting calls with their causes")
    for r in (1, 2, 3):
        recv = [s for w, s in waits if w == r and s[0] == "MPI_Recv"]
        if not check(len(recv) == 1, f"otf2: rank {r}'s MPI_Recv has causes"):
            continue
        a = recv[0][3]
        print(f"otf2: rank {r}'s MPI_Recv: {a}")
        cost, other = (a["direct_s"], a["propagated_s"]) if r == 1 else \
            (a["propagated_s"], a["direct_s"])
        check(a["cause_rank"] == 0 and a["cause"] == "extra" and a["wait_kind"] == "late_sender"
              and other == 0 and cost >= 0.5 * a["wait_s"],
              f"otf2: rank {r}'s wait {a['wait_s']:.3f} s caused most by rank 0's extra, "
              f"{'direct' if r == 1 else 'propagated'} {cost:.3f} s")
    for _w, s in waits:
        check(explained_s(s[3]) <= s[3]["wait_s"] + 1e-8,
              f"otf2: a wait's causes within its seconds {s[3]}")
    got = sum(explained_s(s[3]) for _w, s in waits)
    print(f"otf2: the waits' causes {got:.9f} s, papi_report's explained {explained:.6f} s")
    check(abs(got - explained) <= 1e-5, "otf2: the waits' causes add up to the explained seconds")
    checked = 0
    for row in rows:
        ranks = set()
        for run in row["wait_ranks"].split(","):
            lo, _, hi = run.partition("-")
            ranks |= set(range(int(lo), int(hi or lo) + 1))
        mine = [s[3] for w, s in waits if w in ranks and s[0] == row["wait_call"]
                and s[3]["wait_kind"] == row["wait_kind"]]
        waited = sum(a["wait_s"] for a in mine)
        check(abs(waited - float(row["waited_s"])) <= 1e-6,
              f"otf2: {row['wait_call']} {row['wait_kind']} ({row['wait_ranks']}): wait_s "
              f"{waited:.9f}, the table's waited_s {row['waited_s']}")
        top = [a for a in mine if a.get("cause_rank") == int(row["cause_rank"])
               and a.get("cause") == row["cause"] and a.get("cause_site") == row["cause_site"]]
        if not top or any(a not in top and a.get("other_causes_s", 0) > 0 for a in mine):
            continue  # not the largest cause of any, or some wait's other causes hide it
        cost = [sum(a[k] for a in top) for k in ("direct_s", "propagated_s")]
        print(f"otf2: {row['cause']} (rank {row['cause_rank']}) in {row['wait_call']} "
              f"({row['wait_ranks']}): direct {cost[0]:.9f} s, propagated {cost[1]:.9f} s; "
              f"the table {row['direct_s']}, {row['propagated_s']}")
        check(abs(cost[0] - float(row["direct_s"])) <= 1e-6 and
              abs(cost[1] - float(row["propagated_s"])) <= 1e-6,
              f"otf2: the costs of {row['cause']} (rank {row['cause_rank']}) are the table's")
        checked += 1
    check(checked >= 1 and rows and rows[0]["cause"] == "extra",
          f"otf2: {checked} rows' costs checked, extra's first")


def refusals(anchor, out, scratch):
    """An OUT that exists; an archive whose event logs are gone: exit 2, nothing written."""
    before = sorted(os.listdir(os.path.dirname(out)))
    p = subprocess.run(["/usr/bin/python3", rc.REPORT, "--merge-trace", out, anchor],
                       capture_output=True, text=True, timeout=120)
    check(p.returncode == 2 and "exists" in p.stderr and
          sorted(os.listdir(os.path.dirname(out))) == before,
          f"otf2: an OUT that exists refused ({p.returncode}: {p.stderr.strip()})")
    bare = os.path.join(scratch, "bare")
    shutil.copytree(os.path.dirname(anchor), os.path.join(bare, "papi_mpi_trace"))
    again = os.path.join(scratch, "bare_out.otf2")
    p = subprocess.run(["/usr/bin/python3", rc.REPORT, "--merge-trace", again,
                        os.path.join(bare, "papi_mpi_trace", "traces.otf2")],
                       capture_output=True, text=True, timeout=120)
    check(p.returncode == 2 and "no event logs" in p.stderr and not os.path.exists(again)
          and not [f for f in os.listdir(scratch) if f.startswith(".otf2.")],
          f"otf2: an archive without its event logs refused ({p.returncode}: "
          f"{p.stderr.strip()})")
    # a machine without python3-otf2: a module otf2 that cannot be imported first on the path
    shadow = os.path.join(scratch, "no_otf2")
    os.makedirs(shadow)
    with open(os.path.join(shadow, "otf2.py"), "w") as f:
        f.write("raise ImportError('No module named otf2 (a test shadow)')\n")
    p = subprocess.run(["/usr/bin/python3", rc.REPORT, "--merge-trace", again, anchor],
                       capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, PYTHONPATH=shadow))
    check(p.returncode == 1 and "python3-otf2" in p.stderr and not os.path.exists(again),
          f"otf2: without python3-otf2 one line, exit 1 ({p.returncode}: {p.stderr.strip()})")


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--keep-log", required=True)
    ap.add_argument("--otf2-print", required=True)
    ARGS = args = ap.parse_args()
    if args.otf2_print == "none" or not shutil.which(args.otf2_print):
        need("otf2-print", "Debian: apt-get install otf2-tools")
    try:
        import otf2
    except ImportError as e:
        need("python3-otf2", f"{e} (Debian: apt-get install python3-otf2)")
    scratch = tempfile.mkdtemp(prefix="papi_otf2_causes_")
    try:
        out = rc.launch(args, "chain", scratch, {"PAPI_MPI_TRACE": "otf2"}, finished=True)
        anchor = os.path.join(out or scratch, "papi_mpi_trace", "traces.otf2")
        if out is None or not check(os.path.exists(anchor), "papi_mpi_trace/traces.otf2 written"):
            return verdict()
        text = rc.report(out, "-o", os.path.join(scratch, "tables"))
        rows = rc.table(os.path.join(scratch, "tables"), "mpi_root_causes.csv", "otf2")
        path = rc.table(os.path.join(scratch, "tables"), "mpi_critical_path.csv", "otf2")
        said = re.search(r"critical path \(.*?\): ([0-9.]+) s on the path", text)
        explained = re.search(r"([0-9.]+) s of waiting, ([0-9.]+) s explained", text)
        new = os.path.join(scratch, "with_causes.otf2")
        stdout = rc.report("--merge-trace", new, anchor)
        check(f"wrote {new}" in stdout and "with the critical path" in stdout,
              "otf2: papi_report says what it wrote and added")
        if not check(os.path.exists(new) and said and explained, "otf2: the new archive"):
            return verdict()
        slices, groups, _ns = read(otf2, new)
        path_ref = next(line.split()[1] for line in otf2_print(new, "-G").splitlines()
                        if line.startswith("LOCATION ") and f'"{PATH_NAME}"' in line)
        events_unchanged(anchor, new, path_ref)
        old_facts, new_facts = archive_facts(otf2, anchor), archive_facts(otf2, new)
        print(f"otf2: the job's archive {old_facts}")
        check(old_facts == new_facts and "PAPI_COMPAT::DROPPED_RECORDS" in new_facts[1],
              f"otf2: clock properties, properties, creator and description copied {new_facts}")
        path_checks(slices, groups, path, float(said.group(1)))
        wait_checks(slices, groups, rows, float(explained.group(2)))
        refusals(anchor, new, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
