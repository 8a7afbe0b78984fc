#!/usr/bin/env python3
"""check_persist_lookup.py MPI_WRAPPERS_DIR: a MPI_Start/MPI_Startall reads each of its
requests in the table of persistent requests once (comm/persistent_requests.c), in its
wrapper, and hands what it read to both the partners (recording/traffic.c) and the event
log (event_log/event_log.c). The wrappers are generated here (gen_wrappers.py, both
Fortran forms: bindings that reach the C wrappers and Open MPI's, which enter PMPI_*);
no MPI needed.
  - every start wrapper, C and Fortran, calls the lookup (pmpi_persist_started or its
    Fortran form) exactly once and passes its result (&st_) to pmpi_persistent_start and
    pmpi_log_start, and frees it (pmpi_persist_started_end);
  - no other generated wrapper and no hand-written file but persistent_requests.c reads
    the table's entries (the lookup functions, or a pmpi_persist_find)."""
import glob
import os
import re
import subprocess
import sys
import tempfile

START_NAMES = ("MPI_Start", "mpi_start_", "mpi_start_f08_", "mpi_start_f08ts_",
               "MPI_Startall", "mpi_startall_", "mpi_startall_f08_", "mpi_startall_f08ts_")
LOOKUP = re.compile(r"\bpmpi_persist_(?:started|started_f|find)\s*\(")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def functions(text):
    """{name: body} of the generated file's functions (a definition starts a line)."""
    out = {}
    for m in re.finditer(r"^(?:int|void) (\w+)\([^;{]*\)\n\{\n(.*?)^\}\n", text, re.M | re.S):
        out[m.group(1)] = m.group(2)
    return out


def check_generated(mw, legacy, tmp):
    out = os.path.join(tmp, "legacy" if legacy else "plain")
    os.makedirs(out)
    cmd = [sys.executable, os.path.join(mw, "gen_wrappers.py"), os.path.join(mw, "mpi_calls.list"),
           out] + (["--fortran-enters-pmpi"] if legacy else [])
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        fail("%s: exit status %d\n%s" % (" ".join(cmd), p.returncode, p.stderr))
    fns = functions(open(os.path.join(out, "papi_mpi_wrappers.c"), encoding="utf-8").read())
    starts = [n for n in START_NAMES if n in fns]
    if "MPI_Start" not in starts or "MPI_Startall" not in starts or len(starts) < 4:
        fail("generated wrappers: start wrappers %s (want C and Fortran forms)" % starts)
    for name, body in sorted(fns.items()):
        n = len(LOOKUP.findall(body))
        if name not in starts:
            if n:
                fail("%s reads the table of persistent requests (%d lookups): only a start does"
                     % (name, n))
            continue
        want = ["pmpi_persistent_start(&st_, dt_)", "pmpi_log_start(", ", &st_)",
                "pmpi_persist_started_end(&st_)"]
        if n != 1 or any(w not in body for w in want):
            fail("%s: %d lookups of its requests (want 1), handed to the partners and the log "
                 "(%s):\n%s" % (name, n, ", ".join(w for w in want if w not in body), body))
    print("%s: %d start wrappers look their requests up once (%d wrappers)"
          % ("--fortran-enters-pmpi" if legacy else "plain", len(starts), len(fns)))


def check_sources(mw):
    home = os.path.join(mw, "comm", "persistent_requests.c")
    for path in sorted(glob.glob(os.path.join(mw, "*", "*.[ch]"))):
        if path == home:
            continue
        text = re.sub(r"/\*.*?\*/", "", open(path, encoding="utf-8").read(), flags=re.S)
        if path.endswith(".c") and LOOKUP.search(text):
            fail("%s reads the table of persistent requests itself: the start's wrapper reads "
                 "it once (persistent_requests.c) and hands it on" % os.path.relpath(path, mw))


def main():
    mw = sys.argv[1]
    check_sources(mw)
    with tempfile.TemporaryDirectory(prefix="persist_lookup_") as tmp:
        check_generated(mw, False, tmp)
        check_generated(mw, True, tmp)
    print("check_persist_lookup: PASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
