#!/usr/bin/env python3
"""Every report a test writes is checked against its JSON Schema (schema/, through
papi_report's schema_check: the file, the JSON path and the rule, one line each).

Three ways in, one rule kind each (schema/README.md, "Tests"):
- a C program run by ctest: papi_add_c_test runs it as
    report_check.py --cwd -- PROGRAM ARGS...
  which keeps the program's exit status, then checks the report files it left in its
  working directory (papi_hl_output/, papi_run_output/, their traces' papi_hl_trace/ and
  papi_run_trace/, papi_mpi_*.json, papi_mpi_*.csv, trace_*.json, profile_*.json) and
  under $PAPI_OUTPUT_DIRECTORY, written since it started;
  a CSV file is checked when schema/csv_tables.schema.json describes its name (the file,
  the line, the column and the rule named);
  --dir DIR adds a directory (a sh -c test: report_check.py --dir D -- sh -c '...').
- a Python test script: `import report_check; report_check.guard()` near its top: every
  directory the script removes (shutil.rmtree, tempfile.TemporaryDirectory) and every
  mkdtemp directory it leaves is checked first, and a fixed directory it leaves when named
  with report_check.keep(dir); a violation ends the script with exit 1.
- by hand: `report_check.py PATH...` (files or directories), or check_paths(paths);
  violation(kind, doc) for a document a tool printed (papi_report --json, papi_mpi_collect).
A report written on purpose to break a rule (the hostile-input tests) is kept out of it
by not calling guard(), with guard(skip=("bad_",)) (names starting so are not checked),
or named with report_check.broken(path)."""
import atexit
import importlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
#: Where the package papi_report is (python/), and its load layer (schema_check and the
#: modules it imports).
PYTHON_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "python"))
LOAD_LAYER = os.path.join(PYTHON_DIR, "papi_report", "load")

#: The names our writers give report files (a test's own input files are left alone).
PREFIXES = ("rank_", "papi_mpi_", "profile_", "trace_rank_", "papi_validate", "ompt_",
            "gpu_activity_")
#: The directories a writer makes in its working directory.
OUTPUT_DIRS = ("papi_hl_output", "papi_run_output", "papi_hl_trace", "papi_run_trace",
               "papi_ompt_output")


def _schema_check():
    """papi_report's schema_check, without the package's pandas (a C test's wrapper starts
    in a fraction of a second): its layer's modules loaded as a package of their own."""
    if "_papi_schemas" not in sys.modules:
        pkg = types.ModuleType("_papi_schemas")
        pkg.__path__ = [LOAD_LAYER]
        sys.modules["_papi_schemas"] = pkg
    try:
        return importlib.import_module("_papi_schemas.schema_check")
    except ImportError as e:  # no papi_report beside the tests: nothing to check with
        print("report_check: SKIPPED the schema check: %s" % e, file=sys.stderr)
        return None


def _is_report(name, sc):
    """A JSON report by its writers' prefixes, or a CSV file a row schema describes (the MPI
    wrapper's papi_mpi_*.csv, papi_report's tables and compare.csv)."""
    if name.endswith(".json"):
        return name.startswith(PREFIXES)
    return name.endswith(".csv") and sc.csv_check.table_of(name, sc.schemas()) is not None


def _report_files(path, since, skip, sc):
    if os.path.isfile(path):
        return [path]
    found = []
    for base, dirs, names in os.walk(path):
        dirs.sort()
        for n in sorted(names):
            p = os.path.join(base, n)
            if not _is_report(n, sc) or n.startswith(skip) or os.path.abspath(p) in _guarded["broken"]:
                continue
            try:
                if since is not None and os.path.getmtime(p) < since:
                    continue  # an earlier run's file
            except OSError:
                continue  # removed meanwhile
            found.append(p)
    return found


def check_paths(paths, since=None, skip=()):
    """The violations (one line each: file, JSON path, rule) of the report files under
    paths (files or directories; only those changed at or after `since`, a time.time())."""
    sc = _schema_check()
    if sc is None:
        return []
    bad = []
    for path in paths:
        try:
            files = _report_files(path, since, tuple(skip), sc)
        except sc.SchemaUnavailable as e:
            print("report_check: SKIPPED the schema check: %s" % e, file=sys.stderr)
            return []
        for f in files:
            try:
                why = sc.check_file(f)
            except sc.SchemaUnavailable as e:
                print("report_check: SKIPPED the schema check: %s" % e, file=sys.stderr)
                return []
            if why:
                bad.append(why)
    return bad


def violation(kind, doc, name="the document"):
    """None when doc (a parsed JSON document a tool printed: papi_report --json,
    papi_mpi_collect) follows schema/KIND.schema.json, else the line saying where and why
    not; None as well, said on stderr, when the schemas cannot be read here."""
    sc = _schema_check()
    if sc is None:
        return None
    try:
        return sc.check_document(name, doc, kind)
    except sc.SchemaUnavailable as e:
        print("report_check: SKIPPED the schema check: %s" % e, file=sys.stderr)
        return None


def _fail(bad):
    for line in bad:
        print("report_check: a report breaks its schema: %s" % line, file=sys.stderr)
    sys.stderr.flush()
    os._exit(1)


_guarded = {"skip": (), "dirs": set(), "broken": set()}


def broken(path):
    """A report this script wrote broken on purpose (a hostile input): guard() leaves it."""
    _guarded["broken"].add(os.path.abspath(path))


def keep(path):
    """A directory this script writes and leaves (a fixed output directory): guard() checks
    its reports at exit, as it checks the mkdtemp directories left."""
    _guarded["dirs"].add(os.fspath(path))


def guard(skip=()):
    """Check the reports of every directory this script removes, and of the mkdtemp
    directories it leaves, before they go (exit 1 naming each violation)."""
    if _guarded.get("on"):
        return
    # files older than this script were written by an earlier run (a reused build tree,
    # an older schema): removing them is no finding of this run
    _guarded.update(on=True, skip=tuple(skip), since=time.time() - 1)
    rmtree, mkdtemp = shutil.rmtree, tempfile.mkdtemp

    def checked_rmtree(path, *args, **kwargs):
        if isinstance(path, (str, os.PathLike)) and os.path.isdir(path):
            bad = check_paths([os.fspath(path)], since=_guarded["since"], skip=_guarded["skip"])
            if bad:
                _fail(bad)
        _guarded["dirs"].discard(os.fspath(path) if isinstance(path, (str, os.PathLike)) else path)
        return rmtree(path, *args, **kwargs)
    checked_rmtree.avoids_symlink_attacks = rmtree.avoids_symlink_attacks

    def tracked_mkdtemp(*args, **kwargs):
        d = mkdtemp(*args, **kwargs)
        _guarded["dirs"].add(d)
        return d

    shutil.rmtree = checked_rmtree  # TemporaryDirectory's cleanup calls it too
    tempfile.mkdtemp = tracked_mkdtemp

    @atexit.register
    def _left():
        bad = check_paths(sorted(d for d in _guarded["dirs"] if os.path.isdir(d)),
                          since=_guarded["since"], skip=_guarded["skip"])
        if bad:
            _fail(bad)


def _run(argv):
    dirs, cwd_too = [], False
    while argv and argv[0] != "--":
        if argv[0] == "--dir" and len(argv) > 1:
            dirs.append(argv[1])
            argv = argv[2:]
        elif argv[0] == "--cwd":
            cwd_too, argv = True, argv[1:]
        else:
            print("usage: report_check.py [--cwd] [--dir DIR]... -- PROGRAM ARGS...", file=sys.stderr)
            return 2
    cmd = argv[1:]
    start = time.time() - 1  # a file system's coarse times: a file written at once counts
    rc = subprocess.call(cmd)
    if rc != 0:
        return rc  # failed or skipped (77): its own words stand
    if cwd_too:
        dirs += [d for d in OUTPUT_DIRS if os.path.isdir(d)]
        dirs += [n for n in sorted(os.listdir(".")) if n.startswith(PREFIXES) and n.endswith((".json", ".csv"))]
    out = os.environ.get("PAPI_OUTPUT_DIRECTORY")
    if out and os.path.isdir(out):
        dirs.append(out)
    bad = check_paths(dirs, since=start)
    if bad:
        _fail(bad)
    return 0


def main(argv):
    if "--" in argv:
        return _run(argv)
    bad = check_paths(argv)
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
