#!/usr/bin/env python3
"""check_report_profile.py: papi_report with papi_run --sample's profiles (issue 48, the
job-wide view), on perf::TASK-CLOCK (a software event: it samples on any machine).

  check_report_profile.py CASE PAPI_REPORT PAPI_RUN PROFILE_WORK

CASE:
  page     profile_work 300 150 60 (heavy() in one thread, touching 4.8 MB of fresh pages;
           light() then extra() in the other) sampled with -e perf::PAGE-FAULTS:
           report.html has a flame graph per event (inline SVG; heavy has most of the
           page faults), heavy's box width within 5 points of its share of
           profile.folded, hover titles with file:line and the share; the function x thread
           heat map is drawn and its table gives heavy ~100% of its thread and light
           150/210 of the other; report.txt lists the top functions once (one
           header line starting "Top functions"); papi_report's profile.folded and
           profile.EVENT.folded are papi_run's byte for byte (copied: papi_run's merge is their
           one writer), and a profile.folded another run changed is not copied, said.
  large    a profile of 10,000 distinct stacks (half the weight in one stack, the rest spread
           thinly): the flame graph keeps the hot box at exactly 50% and merges the thin
           callees into one [other] box of the other 50%; and two synthetic ranks: the
           function x rank heat map's cells exact, rank 1 named the max.
  compare  A = profile_work 300 150 60, B = profile_work 600 150 0, two runs each taken in
           turn: --compare A1,A2 B1,B2 gives heavy
           "slower" with B/A 2 +- 0.3, light "same", extra "only in A" (absent in B, never
           0); --fail-if 'function:heavy>1.1' exits 4, 'function:light>1.5' 0, a malformed
           one 2.
  noise    synthetic profiles of known sample counts, A two runs, B one: each side's noise
           (the binomial spread sqrt((1-p)/n), with repeated runs the larger of that and
           their spread), B/A and the verdicts exact; a function of B only shown absent in A;
           papi_report on a directory holding only profiles draws the flame graph.
  metric   a synthetic profile with an -m metric: the flame graph weighted by it has exact
           widths (a 25%, where time gives it 75%) and each box's own value on hover.
  schema   hand-made broken profiles (a count that is text, a required member missing, a
           negative frame index, a truncated file): papi_report exits 2 with one line naming
           the file, the JSON path and the rule; never a traceback.
  regions  region_sample_workload (tests/overflow) under PAPI_SAMPLE: the page's and the
           text's function x region table has rs_work_a in alpha, rs_work_b in beta,
           rs_work_c outside every region (PROFILE_WORK is that program here)."""
import csv
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import folded_file  # noqa: E402
from profile_fixture import write_job  # noqa: E402 (the job's profile: papi_run --merge)
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)
from checks import fail  # noqa: E402 (tests/common/checks.py)

report_check.guard()

HERE = os.path.dirname(os.path.abspath(__file__))
EVENT = "perf::TASK-CLOCK@1000000"  # a sample per ms of a thread's CPU time
PY = sys.executable


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=280)
    return p.returncode, p.stdout, p.stderr


def sample(papi_run, out, args, extra=()):
    rc, _, err = run([papi_run, "--quiet", "--sample", EVENT, *extra, "-o", out, "--", *args])
    if rc != 0:
        if "perf_event" in err and ("paranoid" in err or "not permitted" in err):
            print("SKIPPED: cannot sample here: " + err.strip())
            sys.exit(77)
        fail("papi_run exit status %d\n%s" % (rc, err))


def folded(out, name="profile.folded"):
    return folded_file.stacks(out, name, on_error=fail)


def flames(page):
    """{event: [(function, share %, depth, title)]} of the page's flame graphs."""
    out = {}
    for m in re.finditer(r'<svg [^>]*class="flame" data-event="([^"]*)".*?</svg>', page, re.S):
        boxes = re.findall(r'<title>([^<]*)</title><rect [^>]*data-function="([^"]*)" '
                           r'data-share="([0-9.]+)" data-depth="(\d+)"', m.group(0))
        out[m.group(1)] = [(f, float(s), int(d), t) for t, f, s, d in boxes]
    return out


def case_page(tool, papi_run, prog, out):
    d = os.path.join(out, "run")
    sample(papi_run, d, [prog, "300", "150", "60"], ["-e", "perf::PAGE-FAULTS"])
    rep = os.path.join(out, "rep")
    rc, so, err = run([PY, tool, d, "-o", rep])
    if rc != 0:
        fail("papi_report exit status %d\n%s%s" % (rc, so, err))
    page = open(os.path.join(rep, "report.html"), encoding="utf-8").read()
    graphs = flames(page)
    if sorted(graphs) != ["perf::PAGE-FAULTS", "perf::TASK-CLOCK"]:
        fail("flame graphs of %s, expected perf::TASK-CLOCK and perf::PAGE-FAULTS" % sorted(graphs))
    # heavy is not recursive: its boxes' widths add up (a frame-pointer chain may end
    # differently above start_thread in some samples: heavy then has a box per root)
    faults = [b for b in graphs["perf::PAGE-FAULTS"] if b[0] == "heavy"]
    if not faults or sum(b[1] for b in faults) < 50:
        fail("heavy (4.8 MB of fresh pages) has %s of the page faults, expected most; "
             "every box: %s" % (faults, [b[:3] for b in graphs["perf::PAGE-FAULTS"]]))
    for name in ("profile.folded", "profile.perf__PAGE-FAULTS.folded"):  # one file, two writers
        found = [glob.glob(os.path.join(x, "**", name), recursive=True) for x in (d, rep)]
        if [len(f) for f in found] != [1, 1]:
            fail("%s: papi_run's %s, papi_report's %s: one each expected" % (name, found[0], found[1]))
        mine, theirs = (open(f[0], "rb").read() for f in found)
        if mine != theirs or not mine:
            fail("%s: papi_run's (%d bytes) and papi_report's (%d bytes) differ: the same "
                 "stacks in the same order expected" % (name, len(mine), len(theirs)))
    # papi_run's merge is the one writer; papi_report copies a folded file only while it
    # is still the run's (the job file's size and CRC-32): another run's in its place is
    # said, with the command that writes it again, and left out.
    mine = glob.glob(os.path.join(d, "**", "profile.folded"), recursive=True)
    if mine:
        with open(mine[0], "a") as f:
            f.write("main;another_run 1\n")
        rep2 = os.path.join(out, "rep2")
        rc, so, err = run([PY, tool, d, "-o", rep2])
        if rc != 0 or os.path.exists(os.path.join(rep2, "profile.folded")) or \
                "is no longer run" not in err or "papi_run --merge" not in err or \
                not os.path.exists(os.path.join(rep2, "profile.perf__PAGE-FAULTS.folded")):
            fail("a profile.folded not the run's: exit %d, copied %s, said: %s" % (
                rc, os.path.exists(os.path.join(rep2, "profile.folded")), err.strip()[-300:]))
        with open(mine[0], "rb") as f:
            kept = f.read()
        with open(mine[0], "wb") as f:
            f.write(kept[:-len("main;another_run 1\n")])
    stacks = folded(d)
    total = sum(stacks.values())
    own = {}
    for s, c in stacks.items():
        own[s.split(";")[-1]] = own.get(s.split(";")[-1], 0) + c
    hottest = max(own, key=own.get)
    if hottest != "heavy":
        fail("the hottest function is %s (%s), expected heavy" % (hottest, own))
    share = 100.0 * sum(c for s, c in stacks.items() if hottest in s.split(";")) / total
    boxes = [b for b in graphs["perf::TASK-CLOCK"] if b[0] == hottest]
    width = sum(b[1] for b in boxes)
    if not boxes or abs(width - share) > 5:
        fail("heavy's box is %.2f%% wide, its share of profile.folded %.2f%%" % (width, share))
    if not re.search(r"profile_work\.c:\d+", boxes[0][3]) or "% of perf::TASK-CLOCK" not in boxes[0][3]:
        fail("heavy's hover title lacks file:line or the share: %r" % boxes[0][3])
    root = [b for b in graphs["perf::TASK-CLOCK"] if b[2] == 0]
    if len(root) != 1 or abs(root[0][1] - 100) > 1e-6:
        fail("the root box: %s" % root)
    fig = re.search(r'<figure id="profile_function_ranks".*?</figure>', page, re.S)
    if not fig or "<img" not in fig.group(0):
        fail("no function x rank heat map drawn: %s" % (fig.group(0)[:300] if fig else None))
    rows = list(csv.DictReader(open(os.path.join(rep, "profile_function_ranks.csv"))))
    share_in = {}
    for r in rows:
        share_in.setdefault(r["tid"], {})[r["function"]] = float(r["share_pct"])
    hthreads = [t for t, f in share_in.items() if f.get("heavy", 0) > 0]
    lthreads = [t for t, f in share_in.items() if f.get("light", 0) > 0]
    if len(hthreads) != 1 or len(lthreads) != 1 or hthreads == lthreads:
        fail("heavy in threads %s, light in %s: one each, apart" % (hthreads, lthreads))
    h, lt = share_in[hthreads[0]]["heavy"], share_in[lthreads[0]]["light"]
    if h < 85 or abs(lt - 100.0 * 150 / 210) > 10:  # heavy's page faults: [kernel] under it
        fail("heavy %.1f%% of its thread (want >= 85), light %.1f%% of its (want 71 +- 10)" % (h, lt))
    text = open(os.path.join(rep, "report.txt"), encoding="utf-8").read()
    heads = [line for line in text.splitlines() if line.startswith("Top functions")]
    if len(heads) != 1 or "heavy" not in text:  # once: the view's table, not a second list
        fail("report.txt has %d top functions headers, expected 1: %s" % (len(heads), heads))
    print("page: heavy's box %.2f%% wide, %.2f%% of profile.folded; heavy %.1f%% of its thread, "
          "light %.1f%% of its; heavy %.1f%% of the page faults; flame graphs of %s" % (
              width, share, h, lt, sum(b[1] for b in faults), ", ".join(sorted(graphs))))
    if len(faults) > 1:
        print("page: heavy's page-fault boxes: %s" % [b[:3] for b in faults])


def case_large(tool, papi_run, _prog, out):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(tool))))
    try:
        from papi_report.page import html
        from papi_report.load import profile, schema_check
        from papi_report import tables  # the function: every table
    except ImportError as e:
        print("SKIPPED: %s" % e)
        sys.exit(77)
    frames = [{"name": "main", "module": "prog", "file": "prog.c", "line": 5},
              {"name": "hot", "module": "prog", "file": "prog.c", "line": 9}]
    frames += [{"name": "mid_%d" % i, "module": "prog"} for i in range(1000)]
    frames += [{"name": "leaf_%d" % i, "module": "prog"} for i in range(10)]
    stacks = [{"tid": 7, "samples": 9999, "counts": [9999 * 1000000], "frames": [0, 1]}]
    for k in range(9999):  # 9,999 distinct thin stacks: main;mid_i;leaf_j, each mid 0.05%
        stacks.append({"tid": 7, "samples": 1, "counts": [1000000],
                       "frames": [0, 2 + k // 10, 1002 + k % 10]})
    doc = {"kind": "profile", "run": {"id": "r1", "command": "prog", "start": "2026-01-01T00:00:00Z",
                                      "host": "h"}, "pid": 7, "rank": None,
           "sampled_event": "perf::TASK-CLOCK", "period": 1000000, "call_graph": "fp",
           "kernel_frames": False, "events": ["perf::TASK-CLOCK"], "samples": 19998,
           "lost_records": 0, "stack_cap": 65536, "distinct_stacks": 10000, "dropped_samples": 0,
           "dropped_weight": 0, "notes": "", "frames": frames, "stacks": stacks}
    path = os.path.join(out, "profile_r1_7.json")
    json.dump(doc, open(path, "w"))
    write_job(papi_run, out, [doc])
    bad = schema_check.check_file(path)
    if bad:
        fail("the synthetic profile breaks its schema: %s" % bad)
    t = tables(profiles=profile.load(profile.find([out])))
    if len(t["profile_stacks"]) != 10000:
        fail("%d stacks in profile_stacks, expected 10000" % len(t["profile_stacks"]))
    graphs = flames(html.render(t))
    boxes = graphs.get("perf::TASK-CLOCK", [])
    hot = [b for b in boxes if b[0] == "hot"]
    other = [b for b in boxes if b[0] == "[other]"]
    per_level = {}
    for b in boxes:
        per_level[b[2]] = per_level.get(b[2], 0) + 1
    if len(hot) != 1 or abs(hot[0][1] - 50.0) > 0.001:
        fail("hot's box: %s, expected one of 50%%" % hot)
    if len(other) != 1 or abs(other[0][1] - 49.995) > 0.01 or other[0][2] != 2:
        fail("[other] boxes %s: expected one under main of 49.995%%" % other)
    if max(per_level.values()) > 1001 or len(boxes) > 10:
        fail("%d boxes (%s a level) for 10,000 stacks" % (len(boxes), per_level))
    # Two ranks (synthetic): rank_work 100 and 300 samples, other 100 each: the heat map's
    # cells are each rank's shares (50/50 and 75/25) and the functions table names rank 1.
    from papi_report.figures import profile_figures
    two = os.path.join(out, "ranks")
    ranks = []
    for rank, n in ((0, 100), (1, 300)):
        _profile(papi_run, os.path.join(two, "r%d" % rank), {"rank_work": n, "other": 100})
        for f in glob.glob(os.path.join(two, "r%d" % rank, "job_profile_*.json")):
            os.remove(f)  # the job's is the two ranks' (below)
        f = glob.glob(os.path.join(two, "r%d" % rank, "profile_*.json"))[0]
        d = json.load(open(f))
        d.update(rank=rank, pid=100 + rank)
        d["run"]["id"] = "two"
        json.dump(d, open(f, "w"))
        ranks.append(d)
    write_job(papi_run, two, ranks)
    t = tables(profiles=profile.load(profile.find([two])))
    grid = profile_figures.function_ranks(t).papi_grid
    cells = {(fn, c): round(float(grid.loc[fn, c]), 6) for fn in grid.index for c in grid.columns}
    if cells != {("rank_work", "0"): 50.0, ("rank_work", "1"): 75.0, ("other", "0"): 50.0,
                 ("other", "1"): 25.0}:
        fail("function x rank cells %s" % cells)
    top = t["profile_functions"].set_index("function")
    if int(top.loc["rank_work", "max_rank"]) != 1 or int(top.loc["rank_work", "max"]) != 300000000:
        fail("profile_functions: %s" % top.loc["rank_work"].to_dict())
    print("large: 10,000 stacks drawn as %d boxes: hot %.3f%%, [other] %.3f%% (%s)" % (
        len(boxes), hot[0][1], other[0][1], other[0][3].splitlines()[0]))


def case_compare(tool, papi_run, prog, out):
    # Two runs a side, taken in turn (A1 B1 A2 B2): a change of the machine's load between
    # runs then shows in each side's spread of run means (the noise), not as a difference.
    a1, b1, a2, b2, c = (os.path.join(out, x) for x in ("A1", "B1", "A2", "B2", "C"))
    for ra, rb in ((a1, b1), (a2, b2)):
        sample(papi_run, ra, [prog, "300", "150", "60"])
        sample(papi_run, rb, [prog, "600", "150", "0"])
    a, b = a1 + "," + a2, b1 + "," + b2
    rc, so, err = run([PY, tool, "--compare", a, b, "-o", c])
    if rc != 0:
        fail("--compare exit status %d\n%s%s" % (rc, so, err))
    rows = {(r["function"], r["event"]): r for r in
            csv.DictReader(open(os.path.join(c, "compare_functions.csv")))}
    ev = "perf::TASK-CLOCK"
    for fn in ("heavy", "light", "extra"):
        if (fn, ev) not in rows:
            fail("no row of %s in compare_functions.csv: %s" % (fn, sorted(rows)))
    heavy, light, extra = rows[("heavy", ev)], rows[("light", ev)], rows[("extra", ev)]
    if heavy["verdict"] != "slower" or abs(float(heavy["ratio"]) - 2) > 0.3:
        fail("heavy: %s, B/A %s (want slower, 2 +- 0.3)" % (heavy["verdict"], heavy["ratio"]))
    if light["verdict"] != "same":
        fail("light: %s, B/A %s (want same)" % (light["verdict"], light["ratio"]))
    if extra["verdict"] != "only in A" or extra["b"] != "" or extra["share_b_pct"] != "" or not extra["a"]:
        fail("extra: %s (want only in A, B empty)" % extra)
    full = [r for r in csv.DictReader(open(os.path.join(c, "compare.csv")))
            if r["scope"] == "function" and r["entity"] == "extra"]
    if not full or full[0]["b"] != "" or full[0]["verdict"] != "only in A":
        fail("compare.csv's extra row: %s" % full)
    text = open(os.path.join(c, "compare.txt")).read()
    line = [ln for ln in text.splitlines() if ln.startswith("extra ")]
    if not line or "absent" not in line[0] or "only in A" not in line[0]:
        fail("compare.txt does not show extra absent in B: %s" % line)
    for cond, want in (("function:heavy>1.1", 4), ("function:light>1.5", 0),
                       ("function:heavy@%s>=1.5" % ev, 4), ("function:heavy>x", 2)):
        rc, so, err = run([PY, tool, "--compare", a, b, "-o", c, "--fail-if", cond])
        if rc != want:
            fail("--fail-if %r: exit %d, expected %d\n%s" % (cond, rc, want, err))
    print("compare: heavy %s x%.3f (noise %.3f / %.3f), light %s x%.3f, extra %s; --fail-if "
          "4, 0, 4, 2" % (heavy["verdict"], float(heavy["ratio"]), float(heavy["noise_a"]),
                          float(heavy["noise_b"]), light["verdict"], float(light["ratio"]),
                          extra["verdict"]))


def _profile(papi_run, path, functions):
    """A profile file of one run: functions {name: samples}, a sample = 1 ms of TASK-CLOCK."""
    names = ["main"] + sorted(functions)
    doc = {"kind": "profile", "run": {"id": os.path.basename(path), "command": "prog",
                                      "start": "2026-01-01T00:00:00Z", "host": "h"},
           "pid": 9, "rank": None, "sampled_event": "perf::TASK-CLOCK", "period": 1000000,
           "call_graph": "fp", "kernel_frames": False, "events": ["perf::TASK-CLOCK"],
           "samples": sum(functions.values()), "lost_records": 0, "stack_cap": 65536,
           "distinct_stacks": len(functions), "dropped_samples": 0, "dropped_weight": 0,
           "notes": "", "frames": [{"name": n, "module": "prog"} for n in names],
           "stacks": [{"tid": 9, "samples": n, "counts": [n * 1000000],
                       "frames": [0, names.index(f)]} for f, n in sorted(functions.items())]}
    os.makedirs(path)
    with open(os.path.join(path, "profile_%s_9.json" % os.path.basename(path)), "w") as f:
        json.dump(doc, f)
    write_job(papi_run, path, [doc])


def case_noise(tool, papi_run, _prog, out):
    """Synthetic profiles of known counts: A = two runs (heavy 100 and 120 samples, light
    300 each), B = one (heavy 220, light 290, only_b 5): the binomial spread, the spread
    over repeated runs, the verdicts, the ratio, exact."""
    a1, a2, b, c = (os.path.join(out, x) for x in ("a1", "a2", "b", "c"))
    _profile(papi_run, a1, {"heavy": 100, "light": 300})
    _profile(papi_run, a2, {"heavy": 120, "light": 300})
    _profile(papi_run, b, {"heavy": 220, "light": 290, "only_b": 5})
    rc, so, err = run([PY, tool, "--compare", a1 + "," + a2, b, "-o", c])
    if rc != 0:
        fail("--compare exit status %d\n%s%s" % (rc, so, err))
    rows = {r["function"]: r for r in csv.DictReader(open(os.path.join(c, "compare_functions.csv")))}
    binom = lambda n, total: ((1 - n / total) / n) ** 0.5  # noqa: E731
    runs_cv = (((100 - 110) ** 2 + (120 - 110) ** 2) / 1) ** 0.5 / 110
    want = {"heavy": (2.0, max(binom(220, 820), runs_cv), binom(220, 515), "slower"),
            "light": (290 / 300, binom(600, 820), binom(290, 515), "same")}
    for fn, (ratio, na, nb, verdict) in want.items():
        r = rows[fn]
        got = (float(r["ratio"]), float(r["noise_a"]), float(r["noise_b"]), r["verdict"])
        if any(abs(g - w) > 1e-9 for g, w in zip(got[:3], (ratio, na, nb))) or got[3] != verdict:
            fail("%s: ratio, noise A, noise B, verdict %s; expected %s" % (fn, got, (ratio, na, nb, verdict)))
    ob = rows["only_b"]
    if ob["verdict"] != "only in B" or ob["a"] != "" or float(ob["b"]) != 0.005:
        fail("only_b: %s" % ob)
    if abs(float(rows["heavy"]["share_a_pct"]) - 100 * (100 / 400 + 120 / 420) / 2) > 1e-9:
        fail("heavy's share in A %s" % rows["heavy"]["share_a_pct"])
    rep = os.path.join(out, "rep")  # a directory of profiles alone: the page's profile section
    rc, so, err = run([PY, tool, b, "-o", rep])
    page = open(os.path.join(rep, "report.html"), encoding="utf-8").read() if rc == 0 else ""
    if rc != 0 or 'data-event="perf::TASK-CLOCK"' not in page:
        fail("papi_report on a directory of profiles: exit %d, flame graph %s\n%s" % (
            rc, 'data-event="perf::TASK-CLOCK"' in page, err))
    print("noise: heavy x2 noise %.4f (runs) / %.4f (binomial) slower; light same; only_b only in B"
          % (want["heavy"][1], want["heavy"][2]))


def case_metric(tool, papi_run, _prog, out):
    """The flame graph weighted by an -m metric, on a synthetic profile of known counts:
    FAULTS_PER_MS = faults / task clock * 1e6; main;a has 3 ms and 30 faults (10/ms),
    main;b 1 ms and 90 faults (90/ms): by time a is 75% wide, weighted by the metric (the
    faults here: the clock is its denominator) 25%; each box's hover says its own value."""
    frames = [{"name": "main", "module": "prog"}, {"name": "a", "module": "prog"},
              {"name": "b", "module": "prog"}]
    doc = {"kind": "profile", "run": {"id": "m1", "command": "prog", "start": "2026-01-01T00:00:00Z",
                                      "host": "h"}, "pid": 5, "rank": None,
           "sampled_event": "perf::TASK-CLOCK", "period": 1000000, "call_graph": "fp",
           "kernel_frames": False, "events": ["perf::TASK-CLOCK", "perf::PAGE-FAULTS"], "samples": 4,
           "lost_records": 0, "stack_cap": 65536, "distinct_stacks": 2, "dropped_samples": 0,
           "dropped_weight": 0, "notes": "", "frames": frames,
           "metrics": [{"name": "FAULTS_PER_MS", "unit": "faults/ms",
                        "formula": "{perf::PAGE-FAULTS} / {perf::TASK-CLOCK} * 1e6",
                        "terms": {"perf::PAGE-FAULTS": 1, "perf::TASK-CLOCK": 0}}],
           "stacks": [{"tid": 5, "samples": 3, "counts": [3000000, 30], "frames": [0, 1]},
                      {"tid": 5, "samples": 1, "counts": [1000000, 90], "frames": [0, 2]}]}
    src = os.path.join(out, "m1")
    os.makedirs(src)
    json.dump(doc, open(os.path.join(src, "profile_m1_5.json"), "w"))
    write_job(papi_run, src, [doc])
    rep = os.path.join(out, "rep")
    rc, so, err = run([PY, tool, src, "-o", rep])
    if rc != 0:
        fail("papi_report exit status %d\n%s%s" % (rc, so, err))
    page = open(os.path.join(rep, "report.html"), encoding="utf-8").read()
    m = re.search(r'<svg[^>]*data-metric="FAULTS_PER_MS".*?</svg>', page, re.S)
    if not m:
        fail("no flame graph weighted by FAULTS_PER_MS on the page")
    shares = {f: float(x) for f, x in re.findall(r'data-function="([^"]+)" data-share="([^"]+)"', m.group(0))}
    titles = re.findall(r"<title>([^<]*)</title>", m.group(0))
    print("metric: shares %s" % shares)
    if abs(shares.get("a", 0) - 25) > 1e-3 or abs(shares.get("b", 0) - 75) > 1e-3 or shares.get("main") != 100:
        fail("FAULTS_PER_MS-weighted widths %s, expected a 25%%, b 75%%, main 100%%" % shares)
    want = {"a": "FAULTS_PER_MS = 10 faults/ms", "b": "FAULTS_PER_MS = 90 faults/ms",
            "main": "FAULTS_PER_MS = 30 faults/ms"}
    for f, w in want.items():
        if not any(t.startswith(f + "\n") and w in t for t in titles):
            fail("%s's hover lacks %r: %s" % (f, w, titles))
    ev = re.search(r'<svg[^>]*data-event="perf::TASK-CLOCK".*?</svg>', page, re.S)
    tshares = dict(re.findall(r'data-function="([^"]+)" data-share="([^"]+)"', ev.group(0))) if ev else {}
    if float(tshares.get("a", 0)) != 75:
        fail("the task clock's graph gives a %s%%, expected 75%%" % tshares.get("a"))


def case_schema(tool, papi_run, _prog, out):
    """Hand-made broken profiles refused on load: exit 2, one stderr line naming the file,
    the JSON path and the rule (schema/profile.schema.json), never a traceback; the same
    profile unbroken is read."""
    good = os.path.join(out, "good")
    _profile(papi_run, good, {"heavy": 100, "light": 300})
    path = glob.glob(os.path.join(good, "profile_*.json"))[0]
    rc, so, err = run([PY, tool, good, "-o", os.path.join(out, "rep_good")])
    if rc != 0:
        fail("the valid profile refused: exit %d\n%s" % (rc, err))
    doc = json.load(open(path))

    def broken(name, change, want):
        d = os.path.join(out, name)
        os.makedirs(d)
        bad = os.path.join(d, os.path.basename(path))
        b = json.loads(json.dumps(doc))
        text = change(b)
        with open(bad, "w") as f:
            f.write(text if isinstance(text, str) else json.dumps(b))
        report_check.broken(bad)  # broken on purpose: the guard leaves it
        rc, so, err = run([PY, tool, d, "-o", os.path.join(out, "rep_" + name)])
        lines = err.strip().splitlines()
        print("schema: %s: exit %d: %s" % (name, rc, err.strip()))
        if rc != 2 or len(lines) != 1 or "Traceback" in err or bad not in lines[0] or any(
                w not in lines[0] for w in want):
            fail("%s: exit %d (want 2), stderr %r: want one line naming %s and %s" % (
                name, rc, err, bad, want))

    broken("count_text", lambda b: b["stacks"][0]["counts"].__setitem__(0, "many"),
           ["$.stacks[0].counts[0]", "rule type", "profile.schema.json"])
    broken("no_samples", lambda b: b.pop("samples"), ["'samples' is a required property", "rule required"])
    broken("frame_out", lambda b: b["stacks"][1]["frames"].__setitem__(0, -1),
           ["$.stacks[1].frames[0]", "rule minimum"])
    broken("truncated", lambda b: json.dumps(b)[:200], ["is not JSON"])


def case_regions(tool, _papi_run, prog, out):
    """region_sample_workload under PAPI_SAMPLE: the function x region table."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPI_")}
    env.update(PAPI_EVENTS="perf::PAGE-FAULTS", PAPI_OUTPUT_DIRECTORY=out,
               PAPI_SAMPLE="perf::TASK-CLOCK@1000000")
    p = subprocess.run([prog], env=env, capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        fail("region_sample_workload exit status %d\n%s" % (p.returncode, p.stderr))
    rep = os.path.join(out, "rep")
    rc, so, err = run([PY, tool, out, "-o", rep])
    if rc != 0:
        fail("papi_report exit status %d\n%s%s" % (rc, so, err))
    by = {}
    for r in csv.DictReader(open(os.path.join(rep, "profile_function_regions.csv"))):
        f = r["function"].split(".")[0]  # a compiler's clone (f.constprop.0) is f
        by.setdefault(f, {})[r["region"]] = by.get(f, {}).get(r["region"], 0) + int(r["samples"])
    for fn, region in (("rs_work_a", "alpha"), ("rs_work_b", "beta"), ("rs_work_c", "")):
        got = by.get(fn, {})
        if not got or got.get(region, 0) < 0.97 * sum(got.values()):
            fail("%s's samples by region %s, expected in %r" % (fn, got, region))
    text = open(os.path.join(rep, "report.txt"), encoding="utf-8").read()
    page = open(os.path.join(rep, "report.html"), encoding="utf-8").read()
    if "Sampled functions x region" not in text or 'id="table-profile_function_regions"' not in page:
        fail("the function x region table is not in report.txt and report.html")
    print("regions: %s" % {f: r for f, r in by.items() if f.startswith("rs_work")})


def main():
    case, tool, papi_run, prog = sys.argv[1:5]
    out = tempfile.mkdtemp(prefix="papi_report_profile_")
    try:
        globals()["case_" + case](tool, papi_run, prog, out)
    finally:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
