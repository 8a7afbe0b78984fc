#!/usr/bin/env python3
"""check_sample_auto.py: papi_run --sample's default call graph, --call-graph auto.

  check_sample_auto.py PAPI_RUN NOFP FP [REFUSE_DWARF]

NOFP and FP are sample_dwarf.c (main -> outer -> middle -> inner, the work in inner)
built -O2 -g, and -O2 -g -fno-omit-frame-pointer. Sampled on perf::TASK-CLOCK (a software
event: any machine); every profile is checked against schema/profile.schema.json. Cases:
- default on NOFP: call_graph dwarf, call_graph_reason "auto: sample_auto_nofp built
  without frame pointers (...)" naming -O2; 90% of inner's weight under
  main;outer;middle;inner; the banner's line says dwarf, why, and its cost (8 KiB of user
  stack copied per sample).
  On aarch64, where compilers keep frame records, fp and "built with frame pointers",
  the stacks printed only: gcc leaves the leaf inner without a frame record there, so the
  kernel's walk misses middle (as it does on x86_64 for a leaf that needs no stack
  frame: inner keeps its accumulator in memory for that reason);
- default on FP: call_graph fp, the reason names -fno-omit-frame-pointer and warns of
  frameless leaves; (x86_64) 90% of inner's weight under main;outer;middle;inner;
- --call-graph fp on NOFP: fp all the same (given wins), "--call-graph fp given"; the
  share of inner's weight the frame-pointer walk gets right is printed (x86_64: asserted
  under 50%: why auto takes dwarf there);
- NOFP with its DWARF stripped (strip -g: symbols and .eh_frame kept): the architecture's
  assumption said ("has no DWARF compile units: assumed ..."); x86_64: dwarf, full stacks;
- clang (where installed) -O2 -g and -O2 -g -fno-omit-frame-pointer: no switches in its
  producer, DW_AT_frame_base decides (x86_64: the stack pointer, dwarf; the frame pointer,
  fp), inner's stacks full;
- sh -c 'FP; NOFP': each exec'd program decides for itself: one profile per process,
  FP's fp and NOFP's dwarf (x86_64), and the banner has a line for each choice;
- (x86_64, REFUSE_DWARF preloaded into papi_run: a kernel refusing dwarf's registers and
  stack) default on NOFP: one line before the program runs, fp taken, the reason says the
  program lacks frame pointers but DWARF unwinding is refused.
"""
import glob
import json
import os
import platform
import re
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
UNITS = "300"
CHAIN = ["main", "outer", "middle", "inner"]
UNDER = "of inner's weight under main;outer;middle;inner"
X86 = platform.machine() == "x86_64"
COST = "8 KiB of user stack copied with each sample"


def profiles(out):
    """Every profile under out, each checked against the schema."""
    try:
        import jsonschema
        v = jsonschema.Draft202012Validator(json.load(open(SCHEMA)))
    except ImportError:
        v = None
    docs = []
    for f in sorted(glob.glob(os.path.join(out, "**", "profile_*.json"), recursive=True)):
        d = json.load(open(f))
        errors = [e.message for e in v.iter_errors(d)] if v else []
        if errors:
            fail("%s breaks profile.schema.json: %s" % (f, errors[:3]))
        docs.append(d)
    return docs


def folded(out):
    files = glob.glob(os.path.join(out, "**", "profile.folded"), recursive=True)
    if len(files) != 1:
        fail("%d profile.folded under %s" % (len(files), out))
    stacks = {}
    for line in open(files[0]):
        stack, count = line.rstrip("\n").rsplit(" ", 1)
        stacks[stack] = stacks.get(stack, 0) + int(count)
    return stacks


def run(papi_run, out, args, mode=None, env=None):
    cmd = [papi_run, "--sample", EVENT] + (["--call-graph", mode] if mode else [])
    p = subprocess.run(cmd + ["-o", out, "--"] + args, capture_output=True, text=True,
                       timeout=300, env=env)
    if p.returncode != 0:
        fail("%s: exit status %d\n%s" % (" ".join(cmd + args), p.returncode, p.stderr))
    return p.stderr


def chain_share(stacks):
    """The share of inner's weight whose stack ends main;outer;middle;inner (a [kernel]
    leaf below inner allowed)."""
    full = total = 0
    for s, w in stacks.items():
        frames = s.split(";")
        if frames[-1] == "[kernel]":
            frames = frames[:-1]
        if frames and frames[-1] == "inner":
            total += w
            full += w if frames[-4:] == CHAIN else 0
    if total == 0:
        fail("no sample in inner: %s" % sorted(stacks.items(), key=lambda x: -x[1])[:5])
    return 100.0 * full / total


def banner_graphs(err):
    return [line.strip() for line in err.splitlines() if line.startswith(" call stacks:")]


def expect(doc, graph, reason_re, what):
    if doc["call_graph"] != graph or not re.search(reason_re, doc.get("call_graph_reason", "")):
        fail("%s: call_graph %r, call_graph_reason %r (%s and /%s/ wanted)"
             % (what, doc["call_graph"], doc.get("call_graph_reason"), graph, reason_re))


def case_default_nofp(papi_run, nofp, out):
    err = run(papi_run, out, [nofp, UNITS])
    (doc,) = profiles(out)
    if X86:
        expect(doc, "dwarf", r"^auto: sample_auto_nofp built without frame pointers \(1 of 1 "
               r"compile units; -O2, which omits them on x86_64; DW_AT_producer sample_dwarf.c: "
               r"GNU C", "default, -O2")
        said = [g for g in banner_graphs(err) if g.startswith("call stacks: --call-graph dwarf")]
        if len(said) != 1 or COST not in said[0] or doc["call_graph_reason"] not in said[0]:
            fail("the banner does not say dwarf, its cost and why:\n" + err)
    else:
        expect(doc, "fp", r"^auto: sample_auto_nofp built with frame pointers", "default, -O2")
    share = chain_share(folded(out))
    if share < 90 and doc["call_graph"] == "dwarf":
        fail("default, -O2: %.1f%% %s (90%% wanted)" % (share, UNDER))
    print("default on -O2: %s, %.2f%% %s; banner: %s"
          % (doc["call_graph"], share, UNDER, banner_graphs(err)))


def case_default_fp(papi_run, fp, out):
    err = run(papi_run, out, [fp, UNITS])
    (doc,) = profiles(out)
    expect(doc, "fp", r"^auto: sample_auto_fp built with frame pointers \(1 of 1 compile units; "
           r"-fno-omit-frame-pointer \(a leaf function without a frame loses its caller\);",
           "default, -fno-omit-frame-pointer")
    if not any(g.startswith("call stacks: --call-graph fp: auto: sample_auto_fp built with")
               for g in banner_graphs(err)):
        fail("the banner does not say fp and why:\n" + err)
    share = chain_share(folded(out))
    if share < 90 and X86:  # (aarch64's gcc leaves the leaf inner without a frame record)
        fail("default, -fno-omit-frame-pointer: %.1f%% %s" % (share, UNDER))
    print("default on -fno-omit-frame-pointer: fp, %.2f%% %s" % (share, UNDER))


def case_given_fp(papi_run, nofp, out):
    err = run(papi_run, out, [nofp, UNITS], mode="fp")
    (doc,) = profiles(out)
    expect(doc, "fp", r"^--call-graph fp given$", "--call-graph fp on -O2")
    if "call stacks: --call-graph fp" not in err:
        fail("the banner does not say fp:\n" + err)
    share = chain_share(folded(out))
    print("--call-graph fp on -O2: fp (given), %.2f%% %s" % (share, UNDER))
    if X86 and share >= 50:
        fail("the -O2 build's frame-pointer stacks are right for %.1f%% of inner's weight: the "
             "program keeps frame pointers, the test proves nothing" % share)


def case_nodebug(papi_run, nofp, out):
    bare = os.path.join(out, "sample_auto_bare")
    os.makedirs(out)
    shutil.copy(nofp, bare)
    if subprocess.run(["strip", "-g", bare]).returncode != 0:
        print("SKIPPED: strip -g failed")
        sys.exit(77)
    run(papi_run, os.path.join(out, "o"), [bare, UNITS])
    (doc,) = profiles(os.path.join(out, "o"))
    graph, how = ("dwarf", "without") if X86 else ("fp", "with")
    expect(doc, graph, r"^auto: sample_auto_bare has no DWARF compile units: assumed built %s "
           r"frame pointers \(%s compilers" % (how, platform.machine()), "no DWARF")
    share = chain_share(folded(os.path.join(out, "o")))
    if X86 and share < 90:
        fail("no DWARF: %.1f%% %s (90%% wanted)" % (share, UNDER))
    print("no DWARF: %s (assumed), %.2f%% %s" % (doc["call_graph"], share, UNDER))


def case_per_process(papi_run, nofp, fp, out):
    sh = shutil.which("sh")
    if not sh:
        print("per process: SKIPPED (no sh)")
        return
    err = run(papi_run, out, [sh, "-c", '"$0" 100 && "$1" 100', fp, nofp])
    docs = profiles(out)
    by = {}
    for d in docs:
        for name in ("sample_auto_fp", "sample_auto_nofp"):
            if d["run"]["command"].split(" ")[0].endswith(name):
                by[name] = d
    if len(by) != 2:
        fail("per process: profiles of %s" % [d["run"]["command"] for d in docs])
    expect(by["sample_auto_fp"], "fp", r"^auto: sample_auto_fp built with", "sh -c: FP")
    expect(by["sample_auto_nofp"], "dwarf" if X86 else "fp", r"^auto: sample_auto_nofp built",
           "sh -c: NOFP")
    graphs = banner_graphs(err)
    for name in ("sample_auto_fp", "sample_auto_nofp"):
        if not any(by[name]["call_graph_reason"] in g for g in graphs):
            fail("per process: the banner has no line for %s:\n%s" % (name, err))
    print("per process (sh -c): %d profiles; %s" % (
        len(docs), "; ".join("%s %s" % (d["run"]["command"].split(" ")[0].rsplit("/", 1)[-1],
                                         d["call_graph"]) for d in docs)))


def case_clang(papi_run, out):
    """clang records no switches: its functions' DW_AT_frame_base decides (the stack
    pointer at -O2, the frame pointer with -fno-omit-frame-pointer)."""
    cc = shutil.which("clang")
    if not cc:
        print("clang: not judged (no clang here)")
        return
    os.makedirs(out)
    for flags, graph, base in ((["-O2"], "dwarf" if X86 else "fp", "stack" if X86 else "frame"),
                               (["-O2", "-fno-omit-frame-pointer"], "fp", "frame")):
        prog = os.path.join(out, "sample_auto_clang")
        if subprocess.run([cc, "-g", *flags, os.path.join(HERE, "sample_dwarf.c"), "-o",
                           prog, "-ldl"]).returncode != 0:
            fail("clang %s failed" % " ".join(flags))
        o = os.path.join(out, "o" + str(len(flags)))
        run(papi_run, o, [prog, "50"])
        (doc,) = profiles(o)
        expect(doc, graph, r"^auto: sample_auto_clang built with%s frame pointers \(1 of 1 "
               r"compile units; DW_AT_frame_base is the %s pointer in \d+ of \d+ functions; "
               r"DW_AT_producer sample_dwarf.c: .*clang"
               % ("out" if base == "stack" else "", base),
               "clang " + " ".join(flags))
        share = chain_share(folded(o))
        if share < 90 and (graph == "dwarf" or X86):
            fail("clang %s: %.1f%% %s" % (" ".join(flags), share, UNDER))
        print("clang %s: %s, %.2f%% %s" % (" ".join(flags), graph, share, UNDER))


def case_refused(papi_run, nofp, out, shim):
    env = dict(os.environ, LD_PRELOAD=shim)
    err = run(papi_run, out, [nofp, UNITS], env=env)
    said = [line for line in err.splitlines() if line.startswith("papi_run: --call-graph auto")]
    first = err.find("papi_run: --call-graph auto: the kernel refused")
    if len(said) != 1 or first < 0 or first > err.find("Performance counter stats"):
        fail("refused: expected one line before the banner saying dwarf was refused:\n" + err)
    (doc,) = profiles(out)
    expect(doc, "fp", r"^auto: sample_auto_nofp built without frame pointers .*, but DWARF "
           r"unwinding is refused here: frame pointers", "refused")
    if "call stacks: --call-graph fp: auto: sample_auto_nofp built without" not in err:
        fail("refused: the banner does not say fp and why:\n" + err)
    print("refused: %r; fp taken, said: %s" % (said[0], doc["call_graph_reason"][-80:]))


def main():
    papi_run, nofp, fp = sys.argv[1:4]
    out = tempfile.mkdtemp(prefix="papi_auto_")
    try:
        case_default_nofp(papi_run, nofp, os.path.join(out, "nofp"))
        case_default_fp(papi_run, fp, os.path.join(out, "fp"))
        case_given_fp(papi_run, nofp, os.path.join(out, "given"))
        case_nodebug(papi_run, nofp, os.path.join(out, "bare"))
        case_per_process(papi_run, nofp, fp, os.path.join(out, "sh"))
        case_clang(papi_run, os.path.join(out, "clang"))
        if len(sys.argv) > 4 and X86:
            case_refused(papi_run, nofp, os.path.join(out, "refused"), sys.argv[4])
    finally:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
