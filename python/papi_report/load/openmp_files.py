"""papi_report.load.openmp_files: the OpenMP tables of the project's OMPT tool (issue 58,
src-c/ompt): each process's ompt_PID.json (PAPI_OMPT_OUTPUT_DIR, default
papi_ompt_output/; schema/ompt.schema.json) and the same tables carried whole by papi_run's
files (their "openmp" member's processes, checked with the file by load.py). Each file is
checked against its schema, then for what a schema cannot say (one value against another);
the first fault raises MalformedInput naming the file, the JSON path and why. The load
layer: no pandas."""
import glob
import os
import re

from .check import ReportError, _Checker

#: The tool's file name (src-c/ompt/ompt_report.c).
FILE_RE = re.compile(r"ompt_\d+\.json")
#: Folders a run's directory holds them in (PAPI_OMPT_OUTPUT_DIR's default).
FOLDER = "papi_ompt_output"


def find(paths):
    """The tool's files under paths: files named (any name: named on purpose), or the
    ompt_PID.json found at any depth of a directory (a run's directory, its
    papi_ompt_output/); each once, as first given. ReportError for a path that holds none."""
    found, seen = [], set()
    for p in paths:
        if os.path.isdir(p):
            here = sorted(f for f in glob.glob(os.path.join(p, "**", "ompt_*.json"), recursive=True)
                          if FILE_RE.fullmatch(os.path.basename(f)))
            if not here:
                raise ReportError("no OMPT tool table (ompt_PID.json) in %s" % p)
        else:
            here = [p]  # a file that cannot be read is said when it is read
        for f in here:
            if os.path.realpath(f) not in seen:
                seen.add(os.path.realpath(f))
                found.append(f)
    return found


def check_process(path, doc, where="$"):
    """What ompt.schema.json cannot say of one process's table (where: its JSON path in
    the file): thread numbers listed once and below the region's largest team, team
    sizes' instances within the region's, outermost instances within its instances,
    serial time the wall time less the parallel time. MalformedInput names the first fault."""
    bad = _Checker(path).bad
    if doc["serial_ns"] != max(0, doc["wall_ns"] - doc["parallel_ns"]):
        bad(where + ".serial_ns", "is %d, not wall_ns %d less parallel_ns %d" % (
            doc["serial_ns"], doc["wall_ns"], doc["parallel_ns"]))
    for i, r in enumerate(doc["regions"]):
        w = "%s.regions[%d]" % (where, i)
        if r["outermost_instances"] > r["instances"]:
            bad(w + ".outermost_instances", "is %d, more than its %d instances"
                % (r["outermost_instances"], r["instances"]))
        kept = sum(s["instances"] for s in r["team_sizes"]) + r["other_team_size_instances"]
        if kept != r["instances"]:
            bad(w + ".team_sizes", "add up to %d instances (with other_team_size_instances), "
                "not the region's %d" % (kept, r["instances"]))
        largest = max([s["size"] for s in r["team_sizes"]], default=None)
        seen = set()
        for j, t in enumerate(r["threads"]):
            n = t["thread"]
            # A thread's work is inside the region's instances, fork to join: never more.
            if t["work_ns"] > r["wall_ns"]:
                bad("%s.threads[%d].work_ns" % (w, j), "is %d ns, more than the region's wall "
                    "time (%s.wall_ns %d ns)" % (t["work_ns"], w, r["wall_ns"]))
            if n in seen:
                bad("%s.threads[%d].thread" % (w, j), "is %d, listed twice" % n)
            if largest is not None and r["other_team_size_instances"] == 0 and n >= largest:
                bad("%s.threads[%d].thread" % (w, j), "is %d, not below the largest team "
                     "size %d" % (n, largest))
            seen.add(n)


def check_region_file(path, data):
    """check_process on each table a papi_run file carries (load.load_regions), each
    process once (one program's processes on one host: a pid twice is one table twice)."""
    o = data.get("openmp")
    pids = {}
    for i, d in enumerate((o or {}).get("processes") or [] if isinstance(o, dict) else []):
        where = "$.openmp.processes[%d]" % i
        check_process(path, d, where)
        first = pids.setdefault(d["pid"], i)
        if first != i:
            _Checker(path).bad(where + ".pid", "is %d, the process of $.openmp.processes[%d] "
                               "too: one table a process" % (d["pid"], first))


def processes(ompt=(), regions=None):
    """[{"source", "rank", "pid", "doc"}]: every process's table, those of the tool's own
    files (ompt: [(path, doc)] as load.load_ompt gives them; rank None), then those
    papi_run's files carry (regions: load_regions' result, [(rank, data)]), in that order."""
    out = [{"source": os.path.basename(p), "rank": None, "pid": d["pid"], "doc": d} for p, d in ompt]
    for rank, data in regions or []:
        for d in (data.get("openmp") or {}).get("processes") or []:
            out.append({"source": "papi_run rank %d" % rank, "rank": rank, "pid": d["pid"], "doc": d})
    return out
