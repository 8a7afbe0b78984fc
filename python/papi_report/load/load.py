"""papi_report.load.load: the report files read and checked: first against their JSON Schema
(schema_check.py, compiled to plain checks by schema_fast.py: the file, the JSON path
and the rule broken, in one line), then what a schema cannot say (check.py: a rank
beyond nranks, MPI time above the wall time, a series running backwards, a value JSON
cannot hold such as Infinity) and every check a module registered (registry.CHECKS):
the MPI report and one run's region files. The load layer: no pandas."""
import glob
import os
import sys

from . import openmp_files, plausible, rank_rows, registry, schema_check
from .inputs import REGION_FOLDERS
from .check import (MalformedInput, ReportError, _check_regions, _Checker, _load_json, finite,
                    forget)


def _follows_schema(path, doc, kind, bad=None):
    """MalformedInput naming the file, the JSON path and the rule when doc breaks its
    schema (an MPI report's rows checked as they were read: doc's "ranks" holds none,
    bad the first row that broke the row's schema, schema_check.check_streamed). Without
    the schema files, or without jsonschema to word a fault, the checks of check.py still
    run."""
    if kind == "mpi_report" and "tool" not in doc:
        doc = dict(doc, tool="papi_mpi")  # named as one already: its identifying member may be left out
    try:
        why = schema_check.check_streamed(path, doc, kind, "ranks", bad)
    except schema_check.SchemaUnavailable:
        return
    if why:
        raise MalformedInput(why)


def load_mpi(path):
    """The MPI report: a papi_mpi_report.json file, or the directory that holds it. Its
    "ranks" are read from the file a row at a time, here to check them and again each
    time they are iterated (rank_rows.RankRows): its memory does not grow with the job."""
    if os.path.isdir(path):
        path = os.path.join(path, "papi_mpi_report.json")
    rep = rank_rows.read(path, lambda p, top, bad: _follows_schema(p, top, "mpi_report", bad))
    for extra in registry.CHECKS["mpi"]:
        extra(path, rep)
    return rep


def load_ompt(source):
    """[(path, doc)] of the OMPT tool's ompt_PID.json files (openmp_files.find: files, or
    directories searched), each checked against ompt.schema.json, then for what it cannot
    say (openmp_files.check_process)."""
    out = []
    for path in openmp_files.find([source] if isinstance(source, str) else list(source)):
        doc = _load_json(path)
        if not isinstance(doc, dict) or doc.get("tool") != "papi_ompt":
            raise MalformedInput("%s is not a table of the OMPT tool (no \"tool\": \"papi_ompt\")" % path)
        try:
            _follows_schema(path, doc, "ompt")
            finite(_Checker(path), doc)  # NaN, Infinity: no JSON value, which a schema lets by
        finally:
            forget(doc)
        openmp_files.check_process(path, doc)
        plausible.bounded(path, doc)
        out.append((path, doc))
    return out


def load_gpu_file(path):
    """One of papi_run --gpu's files (gpu_activity_RUNID_PID.json), checked against its
    schema, then for what it cannot say: no time or count past what a run reaches
    (plausible.py), no device busy for longer than the run's wall time."""
    doc = _load_json(path)
    if not isinstance(doc, dict) or doc.get("kind") != "gpu_activity":
        raise MalformedInput("%s is not papi_run's GPU activity file (no \"kind\": "
                             "\"gpu_activity\")" % path)
    try:
        _follows_schema(path, doc, "gpu_activity")
        finite(_Checker(path), doc)
    finally:
        forget(doc)
    plausible.bounded(path, doc)
    wall = (doc.get("run_pop") or {}).get("wall_s")
    devices = ((doc["gpu"].get("total") or {}).get("devices") or [])
    for k, d in enumerate(devices if wall is not None else []):
        # the union of its kernels' intervals, all inside the run (1 ms for the clocks' offset)
        if d["busy_ns"] > wall * 1e9 * (1 + 1e-6) + 1e6:
            _Checker(path).bad("$.gpu.total.devices[%d].busy_ns" % k, "is %d ns (%.6g s), more "
                               "than the run's wall time ($.run_pop.wall_s %.6g s)"
                               % (d["busy_ns"], d["busy_ns"] / 1e9, wall))
    return doc


def load_gpu_runs(source, files):
    """[(path, doc)] of papi_run --gpu's per-process files (gpu_activity_RUNID_PID.json,
    gpu_activity.schema.json) beside the region files of source (region_files' folders),
    those of the run of files (load_regions' result: its run id; every one when the files
    carry none), each checked against its schema, sorted by pid."""
    dirs = []
    for s in ([source] if isinstance(source, str) else list(source)):
        for d in _region_dirs(s) if os.path.isdir(s) else [os.path.dirname(s) or "."]:
            if os.path.realpath(d) not in [os.path.realpath(x) for x in dirs]:
                dirs.append(d)
    runs = {_run_of(data) for _, data in files or []} - {None}
    out = []
    for d in dirs:
        for path in sorted(glob.glob(os.path.join(d, "gpu_activity_*.json"))):
            doc = load_gpu_file(path)
            if not runs or doc["run_id"] in runs:
                out.append((path, doc))
    out.sort(key=lambda pd: (pd[1]["pid"], pd[0]))
    return out


def _region_dirs(path):
    """The folders of region files a directory stands for: its papi_hl_output and
    papi_run_output (the program's and papi_run's files of one papi_run -o run), else
    itself."""
    subs = [os.path.join(path, d) for d in REGION_FOLDERS if os.path.isdir(os.path.join(path, d))]
    return subs or [path]


def region_files(source):
    """The region files: a papi_hl_output or papi_run_output directory, their parent (both
    read), or files (any name: a file named is read by its content); each file once."""
    paths, seen = [], set()
    for s in ([source] if isinstance(source, str) else list(source)):
        for d in _region_dirs(s) if os.path.isdir(s) else [None]:
            for p in sorted(glob.glob(os.path.join(d, "rank_*.json"))) if d else [s]:
                if os.path.realpath(p) not in seen:
                    seen.add(os.path.realpath(p))
                    paths.append(p)
    if not paths:
        raise ReportError("no region files (rank_*.json) in %s" % source)
    return paths


def _run_of(data):
    """The file's run id (its "run" header), None for a file written before headers."""
    run = data.get("run")
    rid = run.get("id") if isinstance(run, dict) else None
    return rid if isinstance(rid, str) and rid else None


def _one_run(loaded, run, say):
    """The files of one run: runs are never mixed (two runs' rank files are not ranks of
    one job). With --run ID that run's; else the newest (latest "start", then latest file
    change), said in one line naming the others. Files without a header join the one run
    there is, when there is only one. [(path, data)] -> [(path, data)]."""
    runs = {}
    for path, data in loaded:
        runs.setdefault(_run_of(data), []).append((path, data))
    if run is not None:
        if run not in runs:
            raise ReportError("no run %s among the region files; their runs: %s" % (
                run, ", ".join(str(r) for r in runs)))
        return runs[run]
    if len([r for r in runs if r is not None]) <= 1:
        return loaded  # one run; files without a header (older writers) cannot be told apart

    def newest(rid):
        files = runs[rid]
        start = max((d.get("run") or {}).get("start") or "" for _, d in files)
        return (rid is not None, start, max(os.path.getmtime(p) for p, _ in files))
    order = sorted(runs, key=newest, reverse=True)
    say("papi_report: the region files hold %d runs (%s): reporting the newest, %s; "
        "--run ID reports another" % (len(runs), ", ".join(
            "%s: %d file%s" % (r if r else "no run header", len(runs[r]),
                               "" if len(runs[r]) == 1 else "s") for r in order), order[0]))
    return runs[order[0]]


def load_regions(source, run=None, say=None):
    """[(rank, data)] of every region file of one run (run: its id, else the newest; say
    reports the choice, on stderr by default); the rank is the file's, else its name's
    number; a file of a process without MPI ("pid" and no "rank": its name holds the
    process id, no rank) is numbered after the ranks, 0 when it is alone."""
    loaded = []
    for path in region_files(source):
        data = _load_json(path)
        if not isinstance(data, dict) or "threads" not in data or "event_definitions" not in data:
            raise MalformedInput("%s is not a region file in PAPI 7's format (needs "
                                 "'event_definitions' and 'threads')" % path)
        try:
            _follows_schema(path, data, "region")
            _check_regions(path, data)
        finally:
            forget(data)
        openmp_files.check_region_file(path, data)  # its OpenMP tables: what their schema cannot say
        plausible.region_times(path, data)
        for extra in registry.CHECKS["regions"]:
            extra(path, data)
        loaded.append((path, data))
    out, owner = [], {}
    for path, data in _one_run(loaded, run, say or (lambda m: print(m, file=sys.stderr))):
        rank = data.get("rank")
        if rank is None and "pid" not in data:
            stem = os.path.basename(path).split("_", 1)[-1].rsplit(".", 1)[0]
            rank = int(stem) if stem.isdigit() else len(out)
        _once(owner, path, data, rank)
        out.append((None if rank is None else int(rank), data))
    # A process without a rank is numbered after the ranks, once: papi_run's file and the
    # region file of the process it ran (the same "pid") share its number.
    nxt = max([r for r, _ in out if r is not None], default=-1) + 1
    numbered = {}
    for i, (rank, data) in enumerate(out):
        if rank is None:
            if data["pid"] not in numbered:
                numbered[data["pid"]], nxt = nxt, nxt + 1
            out[i] = (numbered[data["pid"]], data)
    return out


def _once(owner, path, data, rank):
    """Each process of one run has at most one region file of the region API and one of
    papi_run (which share its rank); a second of either kind is the same process twice
    (a file copied, two jobs' files given as one run): MalformedInput naming both files
    and the field. owner: {(who, "rank"|"pid", value): path} of the files so far."""
    key = ("rank", rank) if rank is not None else ("pid", data["pid"])
    who = "papi_run" if data.get("tool") == "papi_run" else "the region API"
    first = owner.setdefault((who,) + key, path)
    if first != path:
        field = "$." + key[0] if data.get(key[0]) is not None else "the number in its name"
        raise MalformedInput("%s: %s is %d, the same process as %s (one %s file a process "
                             "of a run)" % (path, field, key[1], first, who))


def _regions_arg(files):
    """load_regions' result as it is; a directory or paths loaded."""
    if isinstance(files, list) and files and isinstance(files[0], tuple):
        return files
    return load_regions(files)

