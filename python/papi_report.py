#!/usr/bin/python3
"""papi_report: pictures and tables of a run's reports. Reads the MPI wrapper library's
papi_mpi_report.json and the region files papi_hl_output/rank_*.json (one run, or several
ranks' files), and writes one self-contained HTML page with every figure inline
(compute vs MPI time per rank, MPI time per rank by call, time per call and call site
with its spread across ranks, message sizes x time, the rank x rank communication
matrix, counters per rank, the region tree as an icicle (own counts and all-thread
totals, labelled in s, ms, k, M ...), region x rank and region x thread heat maps, the
PAPI_hl_read series, the time series (PAPI_INTERVAL, papi_run --interval: rate per rank
over time as a heat map, per rank and thread and per region as lines, a region's line
only where it ran; with metrics (PAPI_METRICS, PAPI_MPI_METRICS, papi_run -m) each
sample's metric per rank as a heat map, a cell per sample, and per region as lines), the
roofline of the named metrics, the timeline per rank from the run's JSON trace (MPI
time by wait state, regions, a counter track); the run's header (command, start, hosts, CPU, release:
from the MPI report and the region or papi_run files' "run" member, or said absent) and
the tables of calls, call sites, calls x message size, MPI_Pcontrol regions, the region
tree (own and all threads), named metrics per rank and region, and OpenMP's parallel
regions, threads and efficiencies from the OMPT tool's ompt_PID.json or papi_run's
files), the same header and tables as text (report.txt), the tidy CSV tables the
figures are drawn from, and the region tree in Hatchet's literal format
(regions_hatchet.json). A figure whose input was
not given is left out. The same tables are available as pandas DataFrames from the
Python module papi_report.

Exit status: 0 done, 1 the inputs cannot be read, the output cannot be written or
pandas/matplotlib are missing, 2 bad usage or an input that is not in the expected format
or holds an impossible value (one line naming the file, the field and why: a negative or
fractional partners_dropped, a negative, infinite or backwards series value ...), 3 the
report is written but some figures failed (the page and stderr say which and why)."""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.realpath(__file__))  # a link to it finds its install
# The module lives beside this script in the source tree and in <prefix>/share/papi/python
# once installed (the script is <prefix>/bin/papi_report).
PACKAGE_DIR = None
for cand in (HERE, os.path.join(HERE, "..", "share", "papi", "python")):
    if os.path.isfile(os.path.join(cand, "papi_report", "__init__.py")):
        PACKAGE_DIR = os.path.abspath(cand)
        sys.path.insert(0, PACKAGE_DIR)
        break


def version_action():
    """--version's action (papi_report.load.compat_version: the release of the libpapi
    beside this script), the module loaded from its file: the package is not imported
    while the options are parsed, and nothing is left in sys.modules for the package's
    import after it (the module imports only the standard library)."""
    import importlib.util
    path = os.path.join(PACKAGE_DIR or HERE, "papi_report", "load", "compat_version.py")
    spec = importlib.util.spec_from_file_location("papi_report.load.compat_version", path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except OSError as e:
        sys.exit("papi_report: papi_report's module is not installed beside %s (%s)" % (HERE, e))
    return module.VersionAction


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="papi_report", description=__doc__.split("\n\n")[0].split(": ", 1)[1],
        epilog="Without a PATH, --mpi or --regions, the current directory's "
               "papi_mpi_report.json, papi_hl_output/, papi_run_output/ and "
               "papi_ompt_output/ are read (whichever exist).")
    p.add_argument("--version", action=version_action(), tool="papi_report",
                   bindir=HERE)
    p.add_argument("paths", metavar="PATH", nargs="*",
                   help="a run's directory (its papi_mpi_report.json, papi_hl_output/, "
                        "papi_run_output/ and papi_ompt_output/ are read, whichever exist: "
                        "one process's papi_run file and region file counted once), a "
                        "papi_mpi_report.json, a papi_hl_output or papi_run_output directory, "
                        "region files (a file named is read by its content, whatever its "
                        "name), or the OMPT tool's papi_ompt_output directory or ompt_PID.json "
                        "files")
    p.add_argument("--mpi", metavar="PATH", help="papi_mpi_report.json or its directory")
    p.add_argument("--regions", metavar="PATH", nargs="+",
                   help="a papi_hl_output or papi_run_output directory (or their parent: "
                        "both read), or region files")
    p.add_argument("--openmp", metavar="PATH", nargs="+",
                   help="the OMPT tool's ompt_PID.json files, or directories holding them "
                        "(PAPI_OMPT_OUTPUT_DIR, default papi_ompt_output/); papi_run's files "
                        "carry theirs (their \"openmp\" member)")
    p.add_argument("--run", metavar="ID",
                   help="the run to report when the region files hold several (their "
                        "\"run\" id); default: the newest, said on stderr")
    p.add_argument("-o", "--output", metavar="DIR", default="papi_report",
                   help="where report.html, report.txt, the CSV tables and regions_hatchet.json go "
                        "(default: ./papi_report)")
    p.add_argument("--title", default="PAPI report", help="the page's title")
    p.add_argument("--peak-flops", metavar="FLOP/S", type=float,
                   help="the machine's peak FLOP/s for the roofline (before any \"peaks\" "
                        "member of the reports)")
    p.add_argument("--peak-bw", metavar="BYTES/S", type=float,
                   help="the machine's peak memory bandwidth in bytes/s for the roofline")
    p.add_argument("--check", action="store_true",
                   help="check the PATHs (report files, or run directories: every report "
                        "file under them) against their JSON Schemas "
                        "(<prefix>/share/papi/schema), then for what the report refuses "
                        "besides (an impossible value: fewer rank rows than nranks, a time "
                        "past a century, a thread's work above its region's wall time ...), "
                        "and print one line per file that breaks one (the file, the JSON "
                        "path, the rule); exit 2 if any does, 0 if all follow them. Writes "
                        "nothing")
    p.add_argument("--compare", nargs=2, metavar=("A", "B"),
                   help="compare two runs: each a region or papi_run directory, an MPI report "
                        "or a run's directory, or several repeated runs separated by commas "
                        "(A1,A2,A3); prints B/A per region, call, rank, event and metric with a "
                        "verdict (same, slower, faster, higher, lower, only in A/B) against the "
                        "noise, a verdict per region, and POP's computation scalability of MPI "
                        "reports; with event logs in A and B (one directory each), each finding "
                        "of --advise A with the saving it predicted and what B saved (the wall "
                        "time's and its activity's on the critical path); writes compare.html "
                        "(ratio charts per region and per quantity), compare.txt, compare.csv, "
                        "compare_regions.csv and compare_pop_scalability.csv to -o")
    p.add_argument("--tolerance", type=float, default=0.10, metavar="FRACTION",
                   help="--compare: a ratio within 1 +- FRACTION (and twice the noise: the spread "
                        "of repeated runs, else of threads and ranks) is the same (default 0.10)")
    p.add_argument("--time-tolerance", type=float, default=0.25, metavar="FRACTION",
                   help="--compare with one run on a side: the tolerance of times (default 0.25), "
                        "whose run-to-run noise is not measured; counts keep --tolerance. A "
                        "region's wall time there is judged on its load-free B/A, each side's wall "
                        "time less the time its threads spent off a CPU (where perf::TASK-CLOCK "
                        "was counted), which one run cannot tell from the machine's load; a time "
                        "that moved by under 1 ms is the same; a region's verdict is its time's. "
                        "Give repeated runs (A1,A2,A3) to judge time spent waiting")
    p.add_argument("--fail-if", action="append", default=[], metavar="COND",
                   help="--compare: exit 4 when a row's B/A (a region's load-free B/A where its "
                        "verdict used one) meets COND, e.g. 'real_time_nsec>1.05', "
                        "'time>1.1' (every time), 'region:main/solve:perf::PAGE-FAULTS>=2', "
                        "'openmp:main (a.c:12):wall_s>1.1' (an OpenMP parallel region's), "
                        "'function:solve>1.1' (a profiled function's sampled weight; "
                        "repeatable)")
    p.add_argument("--advise", metavar="DIR",
                   help="what to fix first in the MPI job whose event logs DIR holds: at most "
                        "five findings from its critical path and the root causes of its waits, "
                        "the most each would save of the wall time first (an upper bound), each "
                        "with its place (activity, call site, ranks, thread), the evidence and "
                        "the change (balance R over ranks, shorten R on rank P or overlap the "
                        "sends, overlap call C ...); written as DIR/mpi_advice.csv too. "
                        "--compare A B checks A's findings against B")
    p.add_argument("--merge-trace", metavar="OUT",
                   help="merge the per-rank JSON traces given as PATHs into OUT (one time axis), "
                        "a new file: an OUT that exists or is one of the PATHs is refused (exit 2, "
                        "nothing written); with the job's event logs beside the traces (or in the "
                        "directory above), OUT also has the critical path (a process of its "
                        "own) and each wait linked to its root causes (args and flows); "
                        "--merge-trace OUT.otf2 DIR/papi_mpi_trace/traces.otf2 copies a "
                        "job's OTF2 archive into a new one with its critical path (a location "
                        "of its own) and each wait's largest cause (attributes of its ENTER), "
                        "from the event logs kept in DIR (PAPI_MPI_KEEP_EVENT_LOG=1)")
    p.add_argument("--max-input", metavar="SIZE", default="4G",
                   help="the largest input file read, e.g. 512M, 8G (default 4G); every input "
                        "must be a regular file (symbolic links followed): a larger file, a "
                        "device, a FIFO or a socket is refused in one line (exit 2)")
    p.add_argument("--json", action="store_true",
                   help="print what was written as one JSON document")
    p.add_argument("--text", action="store_true",
                   help="print the text report (report.txt: the run's header and the "
                        "page's tables) instead of the names of the files written")
    return p.parse_args(argv)


def check(paths):
    """papi_report --check: each report file against its schema, one line per broken one."""
    try:
        from papi_report.load import deep_check, schema_check
    except ImportError as e:
        print("papi_report: %s" % e, file=sys.stderr)
        return 1
    files = [f for p in paths for f in schema_check.report_files(p)]
    if not files:
        print("papi_report --check: no report file under %s" % ", ".join(paths), file=sys.stderr)
        return 2
    bad = 0
    try:
        for f in files:
            why = schema_check.check_file(f) or deep_check.deep_check(f)
            if why:
                print("papi_report: %s" % why, file=sys.stderr)
                bad += 1
    except schema_check.SchemaUnavailable as e:
        print("papi_report --check: %s" % e, file=sys.stderr)
        return 1
    print("papi_report --check: %d of %d files follow their schema" % (len(files) - bad, len(files)))
    return 2 if bad else 0


def compare_runs(args):
    """papi_report --compare A B: 0 done, 4 a --fail-if condition held."""
    try:
        import papi_report
        from papi_report.page import advise, compare
        from papi_report.load.event_logs import EventLogError
        from papi_report.load.inputs import classify
    except ImportError as e:
        print("papi_report: %s\n(Debian: apt-get install python3-pandas python3-matplotlib)" % e,
              file=sys.stderr)
        return 1
    sides = [[p for p in side.split(",") if p] for side in args.compare]
    advice_lines = []
    if advise.comparable(*sides):  # A's advice against B's saving: the event logs alone
        try:
            advice_lines = advise.compare_lines(sides[0][0], sides[1][0])
        except EventLogError as e:
            print("papi_report: A's advice not checked: %s" % e, file=sys.stderr)
        if not any(classify(s[0]) for s in sides):  # nothing else to compare
            if advice_lines:
                print("\n".join(advice_lines))
            return 0 if advice_lines else 2
    try:
        for cond in args.fail_if:
            compare.parse_fail_if(cond)
        df = compare.compare(sides[0], sides[1], tolerance=args.tolerance, classify=classify,
                             time_tolerance=args.time_tolerance)
        labels = ["%s (%d run%s)" % (", ".join(s), len(s), "s" if len(s) > 1 else "") for s in sides]
        written = compare.write_outputs(df, args.output, labels[0], labels[1], args.tolerance)
    except papi_report.ReportError as e:
        print("papi_report: %s" % e, file=sys.stderr)
        return 2 if isinstance(e, papi_report.MalformedInput) else 1
    except ValueError as e:
        print("papi_report: %s" % e, file=sys.stderr)
        return 2
    except OSError as e:
        print("papi_report: cannot write %s: %s" % (e.filename or args.output, e.strerror),
              file=sys.stderr)
        return 1
    except (KeyError, TypeError, AttributeError, IndexError, OverflowError) as e:
        print("papi_report: %s: unexpected content (%s: %s)" % (" ".join(args.compare),
              type(e).__name__, e), file=sys.stderr)
        return 2
    sys.stdout.write(compare.render_text(df, labels[0], labels[1], args.tolerance))
    if advice_lines:
        print("\n".join(advice_lines))
    print("papi_report: wrote %s" % ", ".join(written))
    hits = compare.failed_conditions(df, args.fail_if)
    for cond, r in hits:
        lf = r.get("load_free_ratio")
        print("papi_report: --fail-if '%s': %s %s %s: B/A %.3f%s" % (
            cond, r["scope"], r["entity"], r["quantity"], r["ratio"],
            "" if lf is None or lf != lf else " (load-free %.3f)" % lf), file=sys.stderr)
    return 4 if hits else 0


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    # The package's load layer needs no pandas (papi_report/__init__.py): --check,
    # --merge-trace and --advise need no more, and the report loads and checks its inputs
    # before it imports pandas and matplotlib (a second), so a refused input is said at once.
    try:
        from papi_report.load import input_file
    except ImportError as e:
        print("papi_report: %s\n(Debian: apt-get install python3-pandas python3-matplotlib)" % e,
              file=sys.stderr)
        return 1
    try:
        input_file.MAX_BYTES = input_file.parse_size(args.max_input)
    except ValueError as e:
        print("papi_report: %s" % e, file=sys.stderr)
        return 2
    if args.check:
        return check(args.paths or ["."])
    if args.merge_trace:
        from papi_report.page import trace_merge, trace_otf2
        if trace_otf2.is_archive(args.paths):  # a finished job's OTF2 archive
            return trace_otf2.main(args.merge_trace, args.paths)
        return trace_merge.main(args.merge_trace, args.paths)
    if args.compare:
        return compare_runs(args)
    if args.advise:
        from papi_report.page import advise
        return advise.main(args.advise)
    from papi_report.load import profile
    from papi_report.load.check import MalformedInput, ReportError
    from papi_report.load.deep_json import dump_deep
    from papi_report.load.inputs import classify
    from papi_report.load.load import load_gpu_runs, load_mpi, load_ompt, load_regions
    mpi, regions, openmp = args.mpi, args.regions, args.openmp
    for path in args.paths:  # what each path is, by what it holds
        kind = classify(path)
        if kind is None and os.path.exists(path) and profile.find([path]):
            continue  # papi_run --sample's profiles alone: the page's profile section
        if kind is None and os.path.isdir(path):  # a job that died: what its event logs hold
            from papi_report.load import event_logs, log_delays
            if event_logs.has_logs(path) or event_logs.has_rows(path):
                try:
                    summary, malformed = event_logs.summary(
                        path, lambda ranks: log_delays.lines(ranks, args.output))
                except event_logs.EventLogError as e:
                    print("papi_report: %s" % e, file=sys.stderr)
                    return 2
                sys.stdout.write(summary)
                for why in malformed:  # those rows left out, the others shown
                    print("papi_report: %s: left out" % why, file=sys.stderr)
                return 2 if malformed else 0
        if kind is None:
            print("papi_report: %s is neither an MPI report (papi_mpi_report.json or a "
                  "directory holding one), region files (papi_hl_output/, rank_*.json) nor "
                  "the OMPT tool's tables (papi_ompt_output/, ompt_PID.json)"
                  % path, file=sys.stderr)
            return 2
        for k, v in kind:
            if k == "mpi":
                if mpi is not None and os.path.realpath(mpi) != os.path.realpath(v):
                    print("papi_report: two MPI reports given (%s and %s): one run at a time"
                          % (mpi, v), file=sys.stderr)
                    return 2
                mpi = v
            elif k == "openmp":
                openmp = (openmp or []) + [v]
            else:
                regions = (regions or []) + [v]
    if mpi is None and regions is None and openmp is None and not profile.find(args.paths):
        mpi = "papi_mpi_report.json" if os.path.exists("papi_mpi_report.json") else None
        regions = [d for d in ("papi_hl_output", "papi_run_output") if os.path.isdir(d)] or None
        openmp = ["papi_ompt_output"] if os.path.isdir("papi_ompt_output") else None
        if mpi is None and regions is None and openmp is None:
            print("papi_report: no papi_mpi_report.json, papi_hl_output/, papi_run_output/ or "
                  "papi_ompt_output/ here; name them with --mpi, --regions and --openmp",
                  file=sys.stderr)
            return 1
    try:
        files = load_regions(regions, run=args.run) if regions else None
        profiles = profile.load(profile.find(list(args.paths) + (regions or [])), args.run)
        gpu = load_gpu_runs(regions, files) if regions else None  # papi_run --gpu's
        mpi_doc = load_mpi(mpi) if mpi else None
        openmp_docs = load_ompt(openmp) if openmp else None
        try:
            from papi_report.tables.catalog import tables
            from papi_report.tables.tables import region_tree_literal
            from papi_report.page import html, text
        except ImportError as e:
            print("papi_report: %s\n(Debian: apt-get install python3-pandas python3-matplotlib)"
                  % e, file=sys.stderr)
            return 1
        t = tables(mpi=mpi_doc, regions=files, profiles=profiles, openmp=openmp_docs, gpu=gpu,
                   peaks={"flops_per_s": args.peak_flops, "bytes_per_s": args.peak_bw},
                   mpi_name=mpi)
        failed = []
        sources = [s for s in [mpi] + (regions or []) + (openmp or []) if s]
        written = html.write(t, args.output, args.title, sources, failed)
        report_text = text.render(t, args.title, sources)  # its profile_functions view: the top functions, once
        path = os.path.join(args.output, "report.txt")
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            f.write(report_text)
        os.replace(path + ".tmp", path)
        written.insert(1, path)
        written += [w for w in profile.write(list(args.paths) + (regions or []), args.output, args.run,
                                             profiles)
                    if w not in written]  # profile_functions.csv: html.write's table too
        if files:
            path = os.path.join(args.output, "regions_hatchet.json")
            dump_deep(region_tree_literal(files, t["region_tree"]), path)  # any depth, whole or none
            written.append(path)
    except ReportError as e:
        print("papi_report: %s" % e, file=sys.stderr)
        return 2 if isinstance(e, MalformedInput) else 1
    except OSError as e:
        print("papi_report: cannot write %s: %s" % (e.filename or args.output, e.strerror),
              file=sys.stderr)
        return 1
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError) as e:
        # Content the checks of papi_report.tables let through: still one line, no traceback.
        print("papi_report: %s: unexpected content (%s: %s)"
              % (", ".join([s for s in [mpi] + (regions or []) + (openmp or []) if s]), type(e).__name__, e),
              file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"written": written, "failed": dict(failed)}, indent=1))
    elif args.text:
        sys.stdout.write(report_text)
    else:
        print("papi_report: wrote %s and %s" % (written[0], os.path.basename(written[1])))
        print("  tables: %s" % ", ".join(os.path.basename(w) for w in written[2:]))
    for fid, why in failed:
        print("papi_report: figure %s failed: %s" % (fid, why), file=sys.stderr)
    return 3 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
