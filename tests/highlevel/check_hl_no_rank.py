#!/usr/bin/env python3
"""A region file of a process without MPI has no rank (issue 56 item 5): the process id
names it (rank_<pid>.json, as PAPI 7 names it) and is its "pid", but it is no rank: the
file has no "rank" or "rank_source" member (they were null), and the readers number it as
the one process it is, rank 0, where they took the process id for its rank:
papi_hl_output_writer's summary (min_rank, max_rank) and detail ("ranks" keys), and
papi_report's load_regions. Two such files are ranks 0 and 1. A rank from the launcher
(PMI_RANK=2) stays what it is. papi_run's file (argv[2]) likewise.
Usage: check_hl_no_rank.py HL_MIXED_WORKLOAD PAPI_RUN"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
UTILS = os.path.normpath(os.path.join(HERE, "..", "..", "src-c", "utils"))
WRITER = os.path.join(UTILS, "papi_hl_output_writer.py")
sys.path.insert(0, os.path.join(HERE, "..", "common"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))  # papi_report
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)
from checks import check, verdict  # noqa: E402
import papi_report  # noqa: E402

report_check.guard()


def env_for(out, extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PAPI_") and k not in ("PMI_RANK", "OMPI_COMM_WORLD_RANK",
                                                      "PMIX_RANK", "SLURM_PROCID", "MPI_LOCALRANKID")}
    env.update(PAPI_EVENTS="perf::PAGE-FAULTS", PAPI_OUTPUT_DIRECTORY=out, **extra)
    return env


def run(cmd, out, extra):
    p = subprocess.run(cmd, env=env_for(out, extra), capture_output=True, text=True, timeout=120)
    if p.returncode == 77:
        print(p.stdout.strip())
        sys.exit(77)
    check(p.returncode == 0, "%s exited with %d: %s" % (cmd[0], p.returncode, p.stderr[-500:]))


def writer(source, kind):
    """papi_hl_output_writer's JSON document of --type kind."""
    with tempfile.TemporaryDirectory(prefix="hl_no_rank_w_") as cwd:
        p = subprocess.run([sys.executable, WRITER, "--source", source, "--type", kind],
                           cwd=cwd, capture_output=True, text=True, timeout=120)
        check(p.returncode == 0, "writer --type %s: exit %d: %s" % (kind, p.returncode, p.stderr))
        name = "papi_sum.json" if kind == "summary" else "papi.json"
        if p.returncode != 0 or not os.path.exists(os.path.join(cwd, name)):
            return {}
        with open(os.path.join(cwd, name)) as f:
            return json.load(f)


def summary_ranks(doc):
    """Every min_rank and max_rank of the summary."""
    out = set()
    for region in doc.values():
        for v in region.values() if isinstance(region, dict) else []:
            if isinstance(v, dict):
                out |= {v[k] for k in ("min_rank", "max_rank") if k in v}
    return out


def check_dir(source, what, want_ranks, want_summary):
    detail = writer(source, "detail")
    got = sorted(detail.get("ranks", {}))
    check(got == want_ranks, "%s: writer detail ranks %s, want %s" % (what, got, want_ranks))
    got = summary_ranks(writer(source, "summary"))
    check(got == want_summary, "%s: writer summary min/max ranks %s, want %s"
          % (what, sorted(got), sorted(want_summary)))
    got = sorted(r for r, _ in papi_report.load_regions(source, say=lambda m: None))
    check(got == [int(r) for r in want_ranks], "%s: papi_report ranks %s, want %s"
          % (what, got, want_ranks))


def one_file(source):
    names = sorted(n for n in os.listdir(source) if n.endswith(".json"))
    check(len(names) == 1, "%s holds %s, want one file" % (source, names))
    with open(os.path.join(source, names[0])) as f:
        return names[0], json.load(f)


def main():
    exe, papi_run = sys.argv[1], sys.argv[2]
    out = tempfile.mkdtemp(prefix="hl_no_rank_")
    # 1. No MPI: the pid names the file; no rank in it; the readers say rank 0.
    run([exe], out, {})  # "warm" twice: the summary's min and max name a rank
    source = os.path.join(out, "papi_hl_output")
    name, doc = one_file(source)
    check("rank" not in doc and "rank_source" not in doc,
          "file without MPI: rank %r, rank_source %r (want neither member)"
          % (doc.get("rank", "absent"), doc.get("rank_source", "absent")))
    check(name == "rank_%06d.json" % doc.get("pid", -1), "file %s for pid %s" % (name, doc.get("pid")))
    check_dir(source, "one process without MPI", ["0"], {0})
    # 2. Two such files (another process id): ranks 0 and 1, never the process ids.
    other = dict(doc, pid=doc["pid"] + 1)
    with open(os.path.join(source, "rank_%06d.json" % other["pid"]), "w") as f:
        json.dump(other, f)
    check_dir(source, "two processes without MPI", ["0", "1"], {0})
    shutil.rmtree(out)
    # 3. A launcher's rank is the rank.
    out = tempfile.mkdtemp(prefix="hl_no_rank_")
    run([exe], out, {"PMI_RANK": "2"})
    source = os.path.join(out, "papi_hl_output")
    name, doc = one_file(source)
    check(name == "rank_000002.json" and doc.get("rank") == 2 and doc.get("rank_source") == "PMI_RANK",
          "PMI_RANK=2: file %s rank %r from %r" % (name, doc.get("rank"), doc.get("rank_source")))
    check_dir(source, "PMI_RANK=2", ["2"], {2})
    shutil.rmtree(out)
    # 4. papi_run's file of a program without MPI: no rank either.
    out = tempfile.mkdtemp(prefix="hl_no_rank_")
    run([papi_run, "-o", out, "--quiet", "-e", "perf::PAGE-FAULTS", "--", "true"], out, {})
    source = os.path.join(out, "papi_run_output")
    name, doc = one_file(source)
    check("rank" not in doc and "rank_source" not in doc and name.startswith("rank_%06d-" % doc.get("pid", -1)),
          "papi_run without MPI: file %s, rank %r, pid %r" % (name, doc.get("rank", "absent"), doc.get("pid")))
    check_dir(source, "papi_run without MPI", ["0"], set())  # one instance: no min/max
    shutil.rmtree(out)
    return verdict("check_hl_no_rank")


if __name__ == "__main__":
    sys.exit(main())
