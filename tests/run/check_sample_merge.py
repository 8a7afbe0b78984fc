#!/usr/bin/env python3
"""check_sample_merge.py CASE PAPI_RUN PROG [PAPI_REPORT]: papi_run --merge DIR [--run ID],
the run's own merge (run_sample_merge.c) on an output folder left without its job file.
PROG threads (two processes, several threads) is sampled with -e perf::PAGE-FAULTS; a copy
of papi_run_output without job_profile_RUNID.json and the folded files stands for an older
papi_run's folder.
  tool    papi_run --merge COPY (and -o's DIR above it, and --run ID) writes a job file
          equal to the run's (the same run header, events, -m metrics, processes, stacks
          and thread functions with their counts) and the same folded files; errors, each one
          stderr line and exit 2 with nothing written: no such folder, a folder without
          profiles, an unknown run id (the folder's run named), a bad run id, --run
          without --merge, a program after --merge. The run header and -m metrics come
          from the processes' .sample files (papi_run's command, start and host; a
          command with a newline and a backslash read back whole); files of an older
          papi_run, without those lines, still merge (exit 0): one stderr line says the
          job file lacks them, whose run names the id only, no metrics, the rest the run's.
  report  papi_report on COPY with papi_run on PATH writes the same profile_functions.csv
          and profile.folded as on the run's folder (papi_run --merge wrote the job file);
          without papi_run (PATH of python only): one line naming papi_run --merge DIR,
          no profile files, the rest of the report written, exit 0; on an older
          papi_run's files (no run header lines) papi_report passes on papi_run's one
          line of what the job file lacks and writes the profile files."""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)
from checks import fail  # noqa: E402 (tests/common/checks.py)

report_check.guard()

PROFILE_FILES = ("profile_functions.csv", "profile.folded", "profile_stacks.csv")


def run(cmd, path=None):
    env = dict(os.environ, PATH=path) if path is not None else None
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
    return p.returncode, p.stdout, p.stderr


def sampled(papi_run, prog, tmp):
    """The run's papi_run_output, and a copy of it without the job file and folded files;
    -m FAULTS_PER_MS per function (a table of its own, as check_sample_metrics.py's)."""
    d, table = os.path.join(tmp, "run"), os.path.join(tmp, "metrics.csv")
    with open(table, "w") as f:
        f.write("CPU,generic\nMETRIC,FAULTS_PER_MS,faults/ms,{perf::PAGE-FAULTS} / "
                "{perf::TASK-CLOCK} * 1e6,Page faults per ms of CPU time\n")
    os.environ["PAPI_METRICS_FILE"] = table
    rc, so, se = run([papi_run, "--quiet", "--sample", "perf::TASK-CLOCK@1000000", "-e",
                      "perf::PAGE-FAULTS", "-m", "FAULTS_PER_MS", "-o", d, "--", prog, "threads",
                      "400", "a\nb\\c"])  # (an argument the program ignores: in the header)
    if rc != 0:
        fail("papi_run --sample: exit status %d\n%s%s" % (rc, so, se))
    out = os.path.join(d, "papi_run_output")
    old = os.path.join(tmp, "old", "papi_run_output")
    shutil.copytree(out, old)
    for f in glob.glob(os.path.join(old, "job_profile_*.json")) + glob.glob(os.path.join(old, "*.folded")):
        os.remove(f)
    if [m["name"] for m in job(out)[1]["metrics"]] != ["FAULTS_PER_MS"]:
        fail("the run's job file has not the metric FAULTS_PER_MS: %s" % job(out)[1]["metrics"])
    return out, old


def job(folder):
    files = glob.glob(os.path.join(folder, "job_profile_*.json"))
    if len(files) != 1:
        fail("%s: %d job files: %s" % (folder, len(files), sorted(os.listdir(folder))))
    return os.path.basename(files[0]), json.load(open(files[0]))


def folded(folder):
    return {os.path.basename(f): open(f).read() for f in glob.glob(os.path.join(folder, "*.folded"))}


def merge_same(papi_run, out, old, args):
    """papi_run --merge args on old: exit 0 and the run's job file and folded files."""
    for f in glob.glob(os.path.join(old, "job_profile_*.json")) + glob.glob(os.path.join(old, "*.folded")):
        os.remove(f)
    rc, so, se = run([papi_run, "--merge"] + args)
    if rc != 0:
        fail("papi_run --merge %s: exit status %d\n%s%s" % (" ".join(args), rc, so, se))
    (name, want), (got_name, got) = job(out), job(old)
    if got_name != name or got != want:
        diff = sorted(k for k in set(want) | set(got) if want.get(k) != got.get(k))
        fail("papi_run --merge %s: %s differs from the run's %s in %s"
             % (" ".join(args), got_name, name, diff))
    if folded(old) != folded(out) or "profile.folded" not in folded(out):
        fail("papi_run --merge %s: folded files %s, the run's %s" % (" ".join(args), sorted(folded(old)),
                                                                   sorted(folded(out))))
    return want


def refused(papi_run, args, want, folder):
    before = sorted(os.listdir(folder)) if os.path.isdir(folder) else None
    rc, so, se = run([papi_run] + args)
    lines = se.strip().splitlines()
    after = sorted(os.listdir(folder)) if os.path.isdir(folder) else None
    if rc != 2 or not lines or any(w not in lines[0] for w in want) or before != after:
        fail("papi_run %s: exit %d (want 2), stderr %r (want a first line with %s), folder %s -> %s"
             % (" ".join(args), rc, se, want, before, after))
    print("refused: papi_run %s: %s" % (" ".join(args), lines[0]))


def strip_header(old, older):
    """older: a copy of old as an older papi_run left it: no job file, no folded files, no
    run header and metric items in the .sample files' stacks blocks (run_sample_stacks.h:
    the head's ITEMS counts them)."""
    shutil.copytree(old, older)
    for f in glob.glob(os.path.join(older, "job_profile_*.json")) + glob.glob(os.path.join(older, "*.folded")):
        os.remove(f)
    for f in glob.glob(os.path.join(older, ".sample_*.txt")):
        lines = open(f).read().splitlines(True)
        head = lines[0].split()
        if len(head) != 5 or head[0] != "stacks" or len(lines) != 1 + int(head[2]) + int(head[3]):
            fail("%s: not one stacks block: %r" % (f, lines[0]))
        items = lines[1 + int(head[2]):]
        kept = [ln for ln in items if not ln.startswith(("run_", "metric "))]
        if len(items) - len(kept) != 4:  # command, start, host, FAULTS_PER_MS
            fail("%s: %d header items, expected 4" % (f, len(items) - len(kept)))
        head[3] = str(len(kept))
        with open(f, "w") as out:
            out.writelines([" ".join(head) + "\n"] + lines[1:1 + int(head[2])] + kept)


def older_files(papi_run, want, old, older):
    """An older papi_run's .sample files (no "run_..." and "metric" items) merged: exit
    0, one line saying what the job file lacks, the run's id, no metrics, the rest equal."""
    strip_header(old, older)
    rc, so, se = run([papi_run, "--merge", older])
    said = [ln for ln in se.splitlines() if "older papi_run" in ln]
    if rc != 0 or len(said) != 1 or not all(w in said[0] for w in ("command, start and host",
                                                                    "-m metrics", want["run"]["id"])):
        fail("papi_run --merge on an older papi_run's files: exit %d (want 0), stderr %r (want one "
             "line naming the run and what the job file lacks)" % (rc, se))
    _, got = job(older)
    lacking = dict(want, run=dict(want["run"], command="", start="", host=""), metrics=[])
    if got != lacking:
        fail("papi_run --merge on an older papi_run's files: differs in %s"
             % sorted(k for k in lacking if lacking[k] != got.get(k)))
    print("older files: merged, %s" % said[0])


def cut_file(papi_run, out, old):
    """A process's file cut short (its block's last lines never written) beside the run's:
    one line names the file, the line and what is wrong, it is left out whole (the job
    file is the run's), exit 0."""
    files = sorted(glob.glob(os.path.join(old, ".sample_*.txt")))
    run_id = job(out)[1]["run"]["id"]
    cut = os.path.join(old, ".sample_%s_999999.txt" % run_id)
    text = open(files[0]).read()
    with open(cut, "w") as f:
        f.write(text.replace("stacks %s " % text.split()[1], "stacks 999999 ", 1)[:len(text) // 2])
    try:
        rc, so, se = run([papi_run, "--merge", old])
        said = [ln for ln in se.splitlines() if os.path.basename(cut) in ln]
        if rc != 0 or len(said) != 1 or not re.search(r": line \d+: ", said[0]):
            fail("papi_run --merge with a cut file: exit %d (want 0), stderr %r (want one line "
                 "naming %s and its line)" % (rc, se, os.path.basename(cut)))
        if job(old)[1] != job(out)[1]:
            fail("papi_run --merge with a cut file: the job file is not the run's")
        print("cut file: left out, %s" % said[0])
        # A folder whose only file is cut: said so, not "the program never ran the
        # sampling library".
        alone = os.path.join(os.path.dirname(old), "only_cut")
        os.makedirs(alone)
        shutil.copy(cut, alone)
        rc, so, se = run([papi_run, "--merge", alone])
        if rc == 0 or "none of the 1 process file of run %s could be merged" % run_id not in se \
                or "never ran" in se or glob.glob(os.path.join(alone, "job_profile_*")):
            fail("papi_run --merge on a folder of one cut file: exit %d, stderr %r" % (rc, se))
        else:
            print("only a cut file: %s" % se.strip().splitlines()[-1])
    finally:
        os.remove(cut)


def case_tool(papi_run, prog, _papi_report, tmp):
    out, old = sampled(papi_run, prog, tmp)
    want = merge_same(papi_run, out, old, [old])
    run_id = want["run"]["id"]
    merge_same(papi_run, out, old, [os.path.dirname(old)])  # -o's DIR
    merge_same(papi_run, out, old, [old, "--run", run_id])
    print("merged: %d processes, %d stacks, %d thread functions, as the run's job file"
          % (len(want["processes"]), len(want["stacks"]), len(want["thread_functions"])))
    if not want["run"]["command"].endswith(" a\nb\\c"):
        fail("the run's command %r: not the program's arguments whole" % want["run"]["command"])
    older_files(papi_run, want, old, os.path.join(os.path.dirname(os.path.dirname(old)), "older"))
    cut_file(papi_run, out, old)
    empty = os.path.join(tmp, "empty")
    os.makedirs(empty)
    refused(papi_run, ["--merge", os.path.join(tmp, "none")], ["no such folder", "none"], tmp)
    refused(papi_run, ["--merge", empty], ["no processes' profiles", empty], empty)
    for f in glob.glob(os.path.join(old, "job_profile_*.json")) + glob.glob(os.path.join(old, "*.folded")):
        os.remove(f)
    refused(papi_run, ["--merge", old, "--run", "nosuchrun"], ["nosuchrun", run_id], old)
    refused(papi_run, ["--merge", old, "--run", "../x"], ["--run '../x'"], old)
    refused(papi_run, ["--run", run_id, "--", prog], ["--run ID: only with --merge"], old)
    refused(papi_run, ["--merge", old, "--", prog], ["runs no program"], old)


def report(papi_report, src, rep, path):
    rc, so, se = run([sys.executable, papi_report, src, "-o", rep], path)
    if rc != 0:
        fail("papi_report %s: exit status %d\n%s%s" % (src, rc, so, se))
    return se, {os.path.basename(f): open(f).read() for f in glob.glob(os.path.join(rep, "profile*"))}


def case_report(papi_run, prog, papi_report, tmp):
    out, old = sampled(papi_run, prog, tmp)
    python_only = os.path.dirname(sys.executable)  # (no papi_run there: checked below)
    if shutil.which("papi_run", path=python_only):
        print("SKIPPED: a papi_run beside %s" % sys.executable)
        sys.exit(77)
    se, none = report(papi_report, old, os.path.join(tmp, "rep_none"), python_only)
    lines = [ln for ln in se.splitlines() if "papi_run --merge" in ln]
    none = [n for n in none if n in PROFILE_FILES]
    if len(lines) != 1 or "`papi_run --merge %s`" % old not in lines[0] or none:
        fail("without papi_run: stderr %r (want one line naming papi_run --merge %s), profile files %s"
             % (se, old, sorted(none)))
    if glob.glob(os.path.join(old, "job_profile_*.json")) or not os.path.exists(
            os.path.join(tmp, "rep_none", "report.html")):
        fail("without papi_run: a job file written, or no report.html")
    print("without papi_run: %s" % lines[0])
    path = os.path.dirname(os.path.abspath(papi_run)) + os.pathsep + os.environ.get("PATH", "")
    _, want = report(papi_report, out, os.path.join(tmp, "rep_run"), path)
    _, got = report(papi_report, old, os.path.join(tmp, "rep_old"), path)
    for name in PROFILE_FILES:
        if name not in want or got.get(name) != want[name]:
            fail("papi_report's %s differs on the folder without the job file" % name)
    job(old)  # papi_run --merge left it there
    print("with papi_run: profile_functions.csv, profile.folded, profile_stacks.csv the same")
    older = os.path.join(tmp, "older")
    strip_header(out, older)
    se, files = report(papi_report, older, os.path.join(tmp, "rep_older"), path)
    said = [ln for ln in se.splitlines() if "older papi_run" in ln]
    if len(said) != 1 or "profile_functions.csv" not in files:
        fail("papi_report on an older papi_run's files: stderr %r (want papi_run's one line of "
             "what the job file lacks), profile files %s" % (se, sorted(files)))
    print("older files: %s" % said[0])


def main():
    case, papi_run, prog = sys.argv[1:4]
    papi_report = sys.argv[4] if len(sys.argv) > 4 else None
    if case == "report":
        try:
            import pandas  # noqa: F401
        except ImportError:
            print("SKIPPED: papi_report needs python3-pandas")
            return 77
    with tempfile.TemporaryDirectory(prefix="sample_merge_") as tmp:
        {"tool": case_tool, "report": case_report}[case](papi_run, prog, papi_report, tmp)
    print("check_sample_merge %s: PASSED" % case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
