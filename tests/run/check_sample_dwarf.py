#!/usr/bin/env python3
"""check_sample_dwarf.py: papi_run --call-graph dwarf on a program without frame pointers.

  check_sample_dwarf.py PAPI_RUN PROGRAM [LIB]

PROGRAM is sample_dwarf.c built -O2 -g -fomit-frame-pointer: main -> outer -> middle ->
inner, inner doing the work. Sampled on perf::TASK-CLOCK (a software event: any machine):
- --call-graph dwarf: at least 90% of inner's samples have the stack ...;main;outer;
  middle;inner (a [kernel] frame below inner allowed), the profile says call_graph dwarf
  with its unwind_failures (checked against profile.schema.json), the banner says it;
- "dlopen LIB": after outer's work, dl_work -> dl_spin of LIB (sample_dwarf_lib.c, -O2
  -fomit-frame-pointer) dlopen'ed since: 90% of dl_spin's weight under main;dl_work (the
  unwinder reads the maps again when a frame falls outside its modules);
- (x86_64) "nocfi": inner called through an assembly function without CFI and with a
  frame pointer of 0: 90% of inner's weight has the stack nocfi_call;inner (it ends where
  the unwinding broke), 90% of the samples are counted in unwind_failures, the banner says so;
- --call-graph fp: the stacks are printed, not judged (the compiler may keep frames);
- --call-graph bogus: one usage line, exit 2, nothing run;
- the cost, printed (no bound: load moves it): the CPU time of the whole run (program and
  papi_run, all threads; the least of two runs each, taken in turn) with dwarf, fp and
  none; dwarf's extra over none (which holds a fixed part: the unwinder's start and the
  naming of the callers it found), and per sample: the extra at a sample per ms less the
  extra at one per 4 ms, over the samples between.
"""
import glob
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)
from checks import fail  # noqa: E402 (tests/common/checks.py)

report_check.guard()

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "..", "..", "schema", "profile.schema.json")
EVENT = "perf::TASK-CLOCK@1000000"  # a sample per ms of the thread's CPU time
UNITS = "800"  # about a second of inner's work
CHAIN = ["main", "outer", "middle", "inner"]


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def sample(papi_run, prog, out, mode, event=EVENT, extra=()):
    """(stderr, {stack: weight}, profile, CPU seconds of the run)."""
    before = children_cpu()
    p = subprocess.run([papi_run, "--sample", event, "--call-graph", mode, "-o", out, "--",
                        prog, UNITS, *extra], capture_output=True, text=True, timeout=300)
    cpu = children_cpu() - before
    if p.returncode != 0:
        fail("--call-graph %s: exit status %d\n%s" % (mode, p.returncode, p.stderr))
    files = glob.glob(os.path.join(out, "**", "profile.folded"), recursive=True)
    docs = glob.glob(os.path.join(out, "**", "profile_*.json"), recursive=True)
    if len(files) != 1 or len(docs) != 1:
        fail("--call-graph %s: %d folded files, %d profiles" % (mode, len(files), len(docs)))
    stacks = {}
    for line in open(files[0]):
        stack, count = line.rstrip("\n").rsplit(" ", 1)
        stacks[stack] = stacks.get(stack, 0) + int(count)
    doc = json.load(open(docs[0]))
    try:
        import jsonschema
        errors = [e.message for e in
                  jsonschema.Draft202012Validator(json.load(open(SCHEMA))).iter_errors(doc)]
        if errors:
            fail("%s breaks profile.schema.json: %s" % (docs[0], errors[:3]))
    except ImportError:
        pass
    return p.stderr, stacks, doc, cpu


def inner_frames(stack):
    """The frames down to inner (a [kernel] leaf below it dropped), or None."""
    frames = stack.split(";")
    if frames and frames[-1] == "[kernel]":
        frames = frames[:-1]
    return frames if frames and frames[-1] == "inner" else None


def dlopened(papi_run, prog, out, lib):
    """outer's work, then dl_work -> dl_spin of a library dlopen'ed since the unwinder read
    the maps: 90% of dl_spin's weight has ...;main;dl_work;dl_spin."""
    _, stacks, _, _ = sample(papi_run, prog, os.path.join(out, "dl"), "dwarf",
                             extra=("dlopen", lib))
    spin = {s: w for s, w in stacks.items() if s.split(";")[-1] == "dl_spin"
            or s.endswith(";dl_spin;[kernel]")}
    full = sum(w for s, w in spin.items() if ";main;dl_work;dl_spin" in s)
    total = sum(spin.values())
    if total == 0 or full < 0.9 * total:
        fail("dlopen: dl_spin's stacks %s (90%% ...;main;dl_work;dl_spin wanted)" % spin)
    print("dlopen: %.2f%% of dl_spin's weight under main;dl_work (a library loaded since)"
          % (100.0 * full / total))


def nocfi(papi_run, prog, out):
    """inner called through nocfi_call (no CFI, frame pointer 0): the stacks end at
    nocfi_call, and nearly every sample is counted in unwind_failures and said."""
    err, stacks, doc, _ = sample(papi_run, prog, os.path.join(out, "nocfi"), "dwarf",
                                 extra=("nocfi",))
    inner = {s: w for s, w in stacks.items() if inner_frames(s)}
    cut = sum(w for s, w in inner.items() if inner_frames(s) == ["nocfi_call", "inner"])
    total = sum(inner.values())
    if total == 0 or cut < 0.9 * total:
        fail("nocfi: inner's stacks %s (90%% nocfi_call;inner wanted)" % inner)
    if doc["unwind_failures"] < 0.9 * doc["samples"] or "DWARF unwinding stopped early" not in err:
        fail("nocfi: %d unwind failures of %d samples, banner:\n%s"
             % (doc["unwind_failures"], doc["samples"], err))
    print("nocfi: %.2f%% of inner's weight ends at nocfi_call;inner, %d of %d samples counted "
          "as unwind failures" % (100.0 * cut / total, doc["unwind_failures"], doc["samples"]))


def main():
    papi_run, prog = sys.argv[1:3]
    out = tempfile.mkdtemp(prefix="papi_dwarf_")
    try:
        p = subprocess.run([papi_run, "--sample", EVENT, "--call-graph", "bogus", "-o", out,
                            "--", prog, "1"], capture_output=True, text=True, timeout=60)
        if p.returncode != 2 or "--call-graph 'bogus'" not in p.stderr.splitlines()[0]:
            fail("--call-graph bogus: exit %d, stderr %r" % (p.returncode, p.stderr[:300]))
        if glob.glob(os.path.join(out, "**", "profile*"), recursive=True):
            fail("--call-graph bogus left a profile")
        runs, cpu = {}, {}
        for turn in range(2):  # in turn, twice: the least CPU of each run (load moves it)
            for mode in ("dwarf", "fp", "none", "dwarf@4", "none@4"):
                cg, _, slow = mode.partition("@")
                event = "perf::TASK-CLOCK@4000000" if slow else EVENT
                runs[mode] = sample(papi_run, prog, os.path.join(out, "%s%d" % (mode, turn)), cg,
                                    event)
                cpu[mode] = min(cpu.get(mode, runs[mode][3]), runs[mode][3])
        err, stacks, doc, _ = runs["dwarf"]
        if doc["call_graph"] != "dwarf" or "unwind_failures" not in doc:
            fail("the profile says call_graph %r, unwind_failures %r"
                 % (doc["call_graph"], doc.get("unwind_failures")))
        if "--call-graph dwarf" not in err:
            fail("the banner does not say dwarf:\n" + err)
        inner = {s: w for s, w in stacks.items() if inner_frames(s)}
        full = sum(w for s, w in inner.items() if inner_frames(s)[-4:] == CHAIN)
        total = sum(inner.values())
        print("dwarf: %d samples, %d unwind failures; inner's stacks:" %
              (doc["samples"], doc["unwind_failures"]))
        for s, w in sorted(inner.items(), key=lambda x: -x[1]):
            print("  %6.2f%%  %s" % (100.0 * w / total, s))
        if total == 0 or full < 0.9 * total:
            fail("%.1f%% of inner's weight has ...;main;outer;middle;inner (90%% wanted)"
                 % (100.0 * full / total if total else 0))
        print("dwarf: %.2f%% of inner's weight under main;outer;middle;inner"
              % (100.0 * full / total))
        if len(sys.argv) > 3:
            dlopened(papi_run, prog, out, sys.argv[3])
        if platform.machine() == "x86_64":
            nocfi(papi_run, prog, out)
        _, fp_stacks, _, _ = runs["fp"]
        print("fp (not judged: the compiler may keep frames), the heaviest stacks:")
        for s, w in sorted(fp_stacks.items(), key=lambda x: -x[1])[:4]:
            print("  %12d  %s" % (w, s))
        for mode in ("none", "fp", "dwarf"):
            print("cost: --call-graph %-5s %6.3f s CPU (program and papi_run, least of 2), "
                  "%d samples" % (mode, cpu[mode], runs[mode][2]["samples"]))
        extra = cpu["dwarf"] - cpu["none"]
        print("cost: dwarf's CPU beyond none's, whole run: %.3f s (%.1f us a sample; it holds "
              "the naming at exit of the callers dwarf found)" %
              (extra, 1e6 * extra / max(1, doc["samples"])))
        # per sample: the extra at 1 ms less the extra at 4 ms, over the samples between
        fewer = runs["dwarf@4"][2]["samples"]
        marginal = extra - (cpu["dwarf@4"] - cpu["none@4"])
        print("cost: dwarf's CPU per sample (1 ms against 4 ms, %d against %d samples): "
              "%.1f us" % (doc["samples"], fewer, 1e6 * marginal / max(1, doc["samples"] - fewer)))
    finally:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
