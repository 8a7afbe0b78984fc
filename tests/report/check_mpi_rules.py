#!/usr/bin/env python3
"""check_mpi_rules.py BUILT_RULES PYTHON_DIR WRAPPERS_DIR SCHEMA_DIR: one source for the rules the
MPI wrapper and papi_report both apply (issue 57 item 3).

1. The build's papi_report/load/_mpi_rules.py is what papi_report makes from the lists when run
   from the source tree, and papi_report installed with it (a copy of the package) reads it
   rather than the lists.
2. The rules are the ones the wrapper applied before they had one source (the expected
   wait kinds of a few collectives, as wait_states.c's name prefixes gave them).
3. A new wait kind is one line of wait_kinds.list plus its wait= column: on a copy of
   the lists, the generator puts it in the C enum, the report's names and papi_report's
   table; a wait= naming no kind is refused in one line naming the file and line.
4. The event log's record kinds, flags and rendezvous size in the build's table are the C
   headers' (event_record.h, wait_rules.h), read from them: a flag added to a copy of the
   header reaches the table.
5. The schemas (the files' fields come first there): every object or CSV row that has
   one wait kind's key has all of wait_kinds.list's, none other, in its required list
   too where it has one (a new kind's key and description go there).
Exit 0 pass, 1 fail."""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

FAILURES = []


def check(cond, what):
    print(("ok  " if cond else "FAIL") + " " + what)
    if not cond:
        FAILURES.append(what)


def rules_in(pydir, pkg_extra=None):
    """papi_report.load.mpi_rules imported from a copy of the package (plus pkg_extra files
    in its load/), in a fresh interpreter: (SOURCE, WAIT_KINDS, COLL_WAITS, LABELS)."""
    tmp = tempfile.mkdtemp(prefix="papi_rules_")
    try:
        pkg = os.path.join(pydir, "papi_report")  # the source tree as it is
        if pkg_extra:  # an install: a copy with the build's files, no lists beside it
            pkg = os.path.join(tmp, "papi_report")
            shutil.copytree(os.path.join(pydir, "papi_report"), pkg,
                            ignore=shutil.ignore_patterns("__pycache__"))
            for f in pkg_extra:
                shutil.copy(f, os.path.join(pkg, "load"))
        load = os.path.join(pkg, "load")
        # the two packages as bare modules: the package's __init__ would import pandas
        code = ("import importlib.util, sys, types; sys.path.insert(0, %r)\n"
                "spec = importlib.util.spec_from_file_location('papi_report.load.mpi_rules', %r, "
                "submodule_search_locations=None)\n"
                "for name, path in (('papi_report', %r), ('papi_report.load', %r)):\n"
                "    p = types.ModuleType(name); p.__path__ = [path]; sys.modules[name] = p\n"
                "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
                "print(repr((m.SOURCE, m.WAIT_KINDS, m.COLL_WAITS, m.LABELS)))"
                % (os.path.dirname(pkg), os.path.join(load, "mpi_rules.py"), pkg, load))
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"), check=False)
        if r.returncode != 0:
            return None, r.stderr.strip()[-400:]
        return eval(r.stdout), ""  # noqa: S307 (our own repr of lists and dicts)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: check_mpi_rules.py BUILT_RULES PYTHON_DIR WRAPPERS_DIR SCHEMA_DIR")
    built, pydir, wrappers, schemas = sys.argv[1:]
    lists = os.path.join(wrappers, "mpi_calls.list")
    sys.path.insert(0, wrappers)
    import gen_wrappers
    if not os.path.isfile(built):
        check(False, "%s: not built (cmake --build build --target papi_report_rules)" % built)
        return 1
    with open(built, encoding="utf-8") as f:
        check(f.read() == gen_wrappers.gen_python(gen_wrappers.parse(lists),
                                                  gen_wrappers.wait_list(lists)[0]),
              "the build's _mpi_rules.py is the generator's output from the lists")
    # the source tree's package has no _mpi_rules.py: it reads the lists
    check(not os.path.exists(os.path.join(pydir, "papi_report", "load", "_mpi_rules.py")),
          "no generated _mpi_rules.py in the source tree")
    from_lists, err = rules_in(pydir)
    check(from_lists is not None and from_lists[0] == "lists", "source tree: rules from the lists " + err)
    # an install: the package copied with the build's file, no lists beside it
    from_built, err = rules_in(pydir, [built])
    check(from_built is not None and from_built[0] == "built", "installed: rules from _mpi_rules.py " + err)
    if from_lists and from_built:
        check(from_lists[1:] == from_built[1:], "the same rules either way")
    if from_lists:
        source, kinds, colls, labels = from_lists
        check(kinds == ["late_sender", "late_receiver", "wait_nxn", "wait_barrier", "late_root",
                        "early_reduce"], "the wait kinds in the report's order: %s" % kinds)
        expect = {"MPI_Barrier": "wait_barrier", "MPI_Ibarrier": "wait_barrier",
                  "MPI_Allreduce": "wait_nxn", "MPI_Reduce_scatter_block": "wait_nxn",
                  "MPI_Alltoallw": "wait_nxn", "MPI_Iallgatherv": "wait_nxn",
                  "MPI_Bcast": "late_root", "MPI_Iscatterv": "late_root",
                  "MPI_Reduce": "early_reduce", "MPI_Gatherv": "early_reduce",
                  "MPI_Scan": None, "MPI_Exscan": None, "MPI_Reduce_local": None,
                  "MPI_Neighbor_alltoall": None, "MPI_Allreduce_init": "wait_nxn"}
        got = {c: colls.get(c) for c in expect}
        check(got == expect, "collectives' wait kinds: %s" % {c: (got[c], expect[c]) for c in expect
                                                               if got[c] != expect[c]})
        check(labels["wait_nxn"] == "wait at N x N", "the timeline's words: %s" % labels)
    new_kind(wrappers)
    record_header(built, wrappers, gen_wrappers)
    schema_keys(schemas, [k["name"] + "_s" for k in gen_wrappers.wait_list(lists)[0]])
    print("PASS" if not FAILURES else "FAIL: %d checks" % len(FAILURES))
    return 1 if FAILURES else 0


def schema_keys(schemas, keys):
    """Every schema object naming one wait kind ("late_sender_s", or one like it: late_*_s,
    wait_*_s, early_*_s) names them all, in order (properties, required)."""
    found = [0]

    def like(name):
        return name in keys or re.fullmatch(r"(late|wait|early)_\w+_s", name) is not None

    def walk(node, where):
        if isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, "%s/%d" % (where, i))
        if not isinstance(node, dict):
            return
        for field in ("properties", "required"):
            names = node.get(field)
            got = [n for n in names if isinstance(n, str) and like(n)] \
                if isinstance(names, (dict, list)) else []
            if got:
                found[0] += 1
                check(got == keys, "%s %s: wait kinds %s, want %s" % (where, field, got, keys))
        for k, v in node.items():
            walk(v, where + "/" + k)
    for path in sorted(glob.glob(os.path.join(schemas, "*.schema.json"))):
        with open(path, encoding="utf-8") as f:
            walk(json.load(f), os.path.basename(path))
    check(found[0] >= 10, "the schemas' objects with the wait kinds: %d" % found[0])
    return found[0]


def record_header(built, wrappers, gen_wrappers):
    """The build's record kinds, flags and constants: event_record.h's and wait_rules.h's
    values, and what a changed copy of those headers says."""
    table = {}
    with open(built, encoding="utf-8") as f:
        exec(f.read(), table)  # noqa: S102 (the generator's own output)
    check(table.get("RECORD_KINDS") == {"CALL": 1, "SEND": 2, "RECV": 3, "COLL": 4, "WAIT": 5,
                                        "REGION_ENTER": 6, "REGION_EXIT": 7, "COUNTER": 8},
          "record kinds of enum pmpi_ev_kind: %s" % table.get("RECORD_KINDS"))
    check(table.get("RECORD_FLAGS") == {"EVF_SYNC": 1, "EVF_WORLD": 2, "EVF_ROOT": 4, "EVF_GROUP": 8,
                                        "EVF_METRIC": 32, "EVF_IDLE": 16, "EVF_POLL": 64},
          "record flags PMPI_EVF_*: %s" % table.get("RECORD_FLAGS"))
    check(table.get("WAIT_CONSTANTS") == {"RENDEZVOUS_BYTES": 65536},
          "PMPI_RENDEZVOUS_BYTES (64 * 1024): %s" % table.get("WAIT_CONSTANTS"))
    tmp = tempfile.mkdtemp(prefix="papi_rules_header_")
    try:
        copies = []
        for rel, old, new in (("event_log/event_record.h", "#define PMPI_EVF_POLL 64",
                               "#define PMPI_EVF_POLL 64\n#define PMPI_EVF_NEW (1 << 7) /* a test's */"),
                              ("waits/wait_rules.h", "(64 * 1024)", "(32 * 1024)")):
            with open(os.path.join(wrappers, rel), encoding="utf-8") as f:
                text = f.read()
            check(old in text, "%s holds %s" % (rel, old))
            copies.append(os.path.join(tmp, os.path.basename(rel)))
            with open(copies[-1], "w", encoding="utf-8") as f:
                f.write(text.replace(old, new))
        kinds, flags, consts = gen_wrappers.record_constants(copies)
        check(flags.get("EVF_NEW") == 128 and consts == {"RENDEZVOUS_BYTES": 32768} and
              kinds == table.get("RECORD_KINDS"), "changed headers reach the table: %s %s" % (flags, consts))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def new_kind(wrappers):
    """A wait kind added to copies of the lists reaches the C header, the C table and
    papi_report's table; a wait= naming no kind is refused."""
    tmp = tempfile.mkdtemp(prefix="papi_rules_new_")
    try:
        gen = os.path.join(wrappers, "gen_wrappers.py")
        with open(os.path.join(wrappers, "wait_kinds.list"), encoding="utf-8") as f:
            kinds = f.read() + "wait_scan | all | scan | wait at scan | #123456\n"
        with open(os.path.join(tmp, "wait_kinds.list"), "w", encoding="utf-8") as f:
            f.write(kinds)
        with open(os.path.join(wrappers, "mpi_calls.list"), encoding="utf-8") as f:
            calls = f.read()
        scan = [x for x in calls.splitlines() if x.endswith(")") and "int MPI_Scan(" in x][0]
        fields = scan.split(" | ")
        with open(os.path.join(tmp, "mpi_calls.list"), "w", encoding="utf-8") as f:
            f.write(calls.replace(scan, " | ".join(fields[:4] + ["wait=wait_scan"] + fields[5:])))
        lst = os.path.join(tmp, "mpi_calls.list")
        r = subprocess.run([sys.executable, gen, lst, tmp], capture_output=True, text=True, check=False)
        check(r.returncode == 0, "generator with a new kind: " + r.stderr.strip())
        r2 = subprocess.run([sys.executable, gen, "python", lst, os.path.join(tmp, "rules.py")],
                            capture_output=True, text=True, check=False)
        check(r2.returncode == 0, "python table with a new kind: " + r2.stderr.strip())
        if r.returncode == 0 and r2.returncode == 0:
            with open(os.path.join(tmp, "papi_mpi_calls.h"), encoding="utf-8") as f:
                h = f.read()
            with open(os.path.join(tmp, "papi_mpi_calls.c"), encoding="utf-8") as f:
                c = f.read()
            table = {}
            with open(os.path.join(tmp, "rules.py"), encoding="utf-8") as f:
                exec(f.read(), table)  # noqa: S102 (the generator's own output)
            check("PMPI_WAIT_SCAN,\n    PMPI_WAIT_KINDS" in h, "C enum: PMPI_WAIT_SCAN last")
            check('"wait_scan_s",\n};' in c and '{"MPI_Scan", PMPI_KIND_COLL, PMPI_WAIT_SCAN}' in c,
                  "C tables: its report name and MPI_Scan's kind")
            check(table["WAIT_KINDS"][-1] == ("wait_scan", "all", "scan", "wait at scan", "#123456")
                  and table["COLL_WAITS"]["MPI_Scan"] == "wait_scan", "papi_report's table")
        with open(lst, "w", encoding="utf-8") as f:
            f.write(calls.replace(scan, " | ".join(fields[:4] + ["wait=wait_nope"] + fields[5:])))
        r = subprocess.run([sys.executable, gen, lst, tmp], capture_output=True, text=True, check=False)
        err = r.stderr.strip().splitlines()
        check(r.returncode != 0 and len(err) == 1 and "mpi_calls.list:" in err[0] and
              "wait=wait_nope" in err[0], "an unknown wait= refused in one line: %s" % err)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
