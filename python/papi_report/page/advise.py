"""papi_report.page.advise: `papi_report --advise DIR` (what to fix first in a job's run, from
its event logs: load/advice.py's findings printed and written as DIR/mpi_advice.csv) and
its check in `--compare A B` (each finding of A, the saving it predicted against what B
saved). Needs the load layer alone (no pandas)."""
import os
import sys

from ..load import advice, event_logs, log_delays


def _load(directory):
    """Logs of directory's event logs; a torn last line said on stderr."""
    notes = []
    ranks = event_logs.load(directory, notes)
    for why in notes:
        print("papi_report: %s" % why, file=sys.stderr)
    return ranks


def main(directory):
    """--advise DIR: 0 done, 1 the table cannot be written, 2 no event log or a broken one."""
    if not event_logs.has_logs(directory):
        print("papi_report --advise: %s holds no event log (papi_mpi_rank<N>.events.jsonl: "
              "a job that died before MPI_Finalize)" % directory, file=sys.stderr)
        return 2
    try:
        found, path = log_delays.advise(_load(directory))
    except event_logs.EventLogError as e:
        print("papi_report: %s" % e, file=sys.stderr)
        return 2
    print("\n".join(advice.text(found, (path["end"] - path["first"]) * 1e-9)))
    try:
        written = log_delays.write_csv(directory, found, advice.CSV_NAME, advice.COLUMNS)
    except OSError as e:
        print("papi_report: cannot write %s: %s" % (e.filename or directory, e.strerror),
              file=sys.stderr)
        return 1
    print("papi_report: the findings in %s" % written)
    return 0


def comparable(a, b):
    """Whether --compare A B checks A's advice: A and B one directory each, with event logs."""
    return len(a) == 1 and len(b) == 1 and all(
        os.path.isdir(p) and event_logs.has_logs(p) for p in (a[0], b[0]))


def compare_lines(a, b):
    """--compare A B's lines on A's advice: A's findings recomputed from its logs, each
    with its predicted saving and what B saved (load/advice.checked)."""
    found, before = log_delays.advise(_load(a))
    return advice.checked(found, before, log_delays.path_of(_load(b)))
