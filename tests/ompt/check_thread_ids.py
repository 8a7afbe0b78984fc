#!/usr/bin/env python3
"""check_thread_ids.py HOW PROGRAM --papi-run P --tool-dir D [--mpirun M]: a program's own
PAPI_thread_init stays its own under the tools (issue 69 item 1).

PROGRAM (ompt_thread_ids.c or .f90) calls PAPI_thread_init(omp_get_thread_num) and, in a team
of 4, reads PAPI_thread_id() in each thread inside a region "work" of the region API; it
prints one JSON line of what it saw. HOW is how it runs:
  papi_run  unchanged under papi_run with its defaults (the OMPT tool counts every OpenMP
            thread in the program's libpapi; a libgomp program runs under libomp);
  per_thread  papi_run --per-thread (its preloaded library counts each thread too);
  mpi       the same as one MPI rank (THREAD_IDS_MPI: MPI_Init_thread after its
            PAPI_thread_init), `M -np 1 papi_run ...`: papi_run preloads the MPI wrapper
            (which starts its counters in MPI_Init) beside the OMPT tool; D is the
            wrapper's folder.
Each must give: PAPI_is_initialized() at main's start PAPI_NOT_INITED (papi_run --per-thread
starts the library before main, for its own sets), after the program's PAPI_library_init
PAPI_LOW_LEVEL_INITED alone; thread t's PAPI_thread_id() is t, the master's 0 after the region; the
program's region file (PAPI_OUTPUT_DIRECTORY) numbers the 4 threads 0..3 as those ids do
(thread "0" is the master: its tid is the pid; from the C program, thread "t" has thread
t's tid); the C program's own set in thread t counts its (t+1) x 64 fresh pages exactly
(perf::PAGE-FAULTS). The tool must have counted the OpenMP threads (else the run proves
nothing: FAIL)."""
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common"))
import check_ompt  # noqa: E402 (runtime_env: libomp for a libgomp program, or SKIPPED)
import report_check  # noqa: E402 (every file this test writes is checked against its schema)
from checks import check_said as check, verdict  # noqa: E402

report_check.guard()

TEAM = 4


def option(argv, name):
    return argv[argv.index(name) + 1] if name in argv else None


def clean_env(out):
    env = dict(os.environ, PAPI_OUTPUT_DIRECTORY=out, OMP_WAIT_POLICY="passive",
               PAPI_EVENTS="perf::PAGE-FAULTS")
    for name in ("OMP_TOOL_LIBRARIES", "PAPI_OMPT_OUTPUT_DIR", "OMP_TOOL", "PAPI_OMPT_EVENTS",
                 "PAPI_HL_THREAD_MULTIPLE", "PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK",
                 "SLURM_PROCID"):
        env.pop(name, None)
    return env


def run(cmd, env):
    print("$ " + " ".join(cmd))
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=150)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    check(p.returncode == 0, "exit status 0 (%d)" % p.returncode)
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
    return json.loads(lines[-1]) if lines else None


def counted(table, how):
    """The OMPT tool counted the OpenMP threads (its table, papi_run's or its own file)."""
    c = table.get("counters", {}) if table else {}
    check(c.get("events") and c.get("threads_counted", 0) >= TEAM,
          "%s: the OMPT tool counted the team's threads (%s)" % (how, c))


def region_file(out, facts, pid):
    files = glob.glob(os.path.join(out, "papi_hl_output", "rank_*.json"))
    if not check(len(files) == 1, "one region file (%s)" % files):
        return
    with open(files[0]) as f:
        d = json.load(f)
    th = {k: v for k, v in d["threads"].items() if any(r["name"] == "work" for r in v["regions"].values())}
    check(sorted(th) == [str(t) for t in range(TEAM)],
          "the region file's threads with region work are 0..3: %s" % sorted(th))
    check("0" in th and th["0"]["tid"] == pid, "its thread 0 is the master (tid %s, pid %d)"
          % (th.get("0", {}).get("tid"), pid))
    if "tids" in facts:
        got = [th.get(str(t), {}).get("tid") for t in range(TEAM)]
        check(got == facts["tids"], "its thread t is the program's thread t: tids %s, the "
              "program's %s" % (got, facts["tids"]))


def program_facts(facts):
    if not check(facts is not None, "the program printed what it saw"):
        return False
    check(facts["team"] == TEAM, "a team of %d (%d)" % (TEAM, facts["team"]))
    if "init_before" in facts:  # the tools' start is not the program's (PAPI_tool_init)
        check(facts["init_before"] == 0, "PAPI_is_initialized() before the program's "
              "PAPI_library_init: %d, want PAPI_NOT_INITED" % facts["init_before"])
        check(facts["init_after"] == 1, "after it, before its PAPI_thread_init: %d, want "
              "PAPI_LOW_LEVEL_INITED only" % facts["init_after"])
    check(facts["ids"] == list(range(TEAM)), "PAPI_thread_id() in thread t is t: %s" % facts["ids"])
    check(facts["master_id"] == 0, "the master's PAPI_thread_id() after the region: %d"
          % facts["master_id"])
    if "faults" in facts:
        want = [(t + 1) * facts["pages"] for t in range(TEAM)]
        check(facts["faults"] == want, "thread t's own set counts its pages: %s, want %s"
              % (facts["faults"], want))
    return True


def case_papi_run(program, papi_run, tool_dir, tmp, mpirun=None, options=()):
    out = os.path.join(tmp, "papi_run")
    os.mkdir(out)
    env = clean_env(out)
    env["PAPI_RUN_LIBDIR"] = tool_dir
    launch = []
    if mpirun:
        launch = [mpirun] + (["--allow-run-as-root", "--oversubscribe"] if "openmpi" in mpirun else [])
        launch += ["-np", "1"]
    facts = run(launch + [papi_run, "-o", out] + list(options) + ["--", program], env)
    files = glob.glob(os.path.join(out, "papi_run_output", "rank_*.json"))
    if check(len(files) == 1, "one papi_run file (%s)" % files):
        with open(files[0]) as f:
            doc = json.load(f)
        procs = (doc.get("openmp") or {}).get("processes") or [{}]
        counted(procs[0], "papi_run")
        if mpirun:
            check(bool(doc.get("mpi")), "the MPI wrapper ran in the rank (%s)" % doc.get("mpi"))
        if program_facts(facts):
            region_file(out, facts, doc["pid"])


def main(argv):
    if len(argv) < 2 or argv[0] not in ("papi_run", "per_thread", "mpi"):
        print(__doc__, file=sys.stderr)
        return 2
    how, program = argv[0], argv[1]
    check_ompt.runtime_env(program)  # SKIPPED where a libgomp program has no libomp
    tmp = tempfile.mkdtemp(prefix="thread_ids_")
    case_papi_run(program, option(argv, "--papi-run"), option(argv, "--tool-dir"), tmp,
                  option(argv, "--mpirun") if how == "mpi" else None,
                  ["--per-thread"] if how == "per_thread" else [])
    return verdict("thread_ids_" + how, scratch=tmp)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
