"""papi_report.load.log_delays: the root causes of a dead job's wait states (its event logs,
event_logs.py) by the delay analysis (root_causes.py), and its critical path by the
backward replay (critical_path.py), over the same timelines: each rank's records turned into
root_causes' calls (thread 0's: the analysis compares one timeline per rank), each with
the wait event_logs matched and what it waited for, and its MPI_Pcontrol regions.

Memory independent of the job's records, as the wait states' (issue 72 item 3): each
rank's timeline is written once to the Logs' spill as it is read (timeline.DiskTimeline:
its calls' and Segments' columns, its regions, its sync ids and waits sorted, spill.Rows
read back a block at a time), its records read beside the Comm's rows event_logs kept
("rows_at"), never a rank's Comm or calls whole; a call's cause found in the causing
rank's table when asked. The replay goes back and forth between ranks through those
tables (root_causes.py, critical_path.py). Measured with `/usr/bin/time -v python3
python/papi_report.py DIR` on synthetic logs of 4 ranks (tests/report/synthetic_logs.py:
a ring of late senders and an Allreduce rank 0 enters late, every step): max RSS 59 MB at
4 x 10^4 records and 211 MB at 4 x 5 x 10^4 when every rank's calls were held; now 27
and 46 MB, the 19 MB between them the logs' reading and wait states (event_logs.load, 24
to 43 MB: the largest rank's Comm, one entry a collective), the timelines and both
analyses adding nothing to the peak; 6.4 s before and 6.8 s now on a loaded machine
(the per-wait analysis of --merge-trace: 4.6 s of CPU before, 4.4 s now). Plain Python."""
import csv
import os

from . import advice, critical_path, event_log_read, event_logs, root_causes
from . import cause_timeline as timeline
from .event_record import COLL, COUNTER, EVF_GROUP, RECV, REGION_ENTER, REGION_EXIT, SEND, WAIT
from .progress import Progress

_COMM = (SEND, RECV, COLL, WAIT)
#: The CSV's columns (root_causes.rows'), in order.
COLUMNS = ("cause_rank", "cause", "cause_site", "wait_kind", "wait_call", "wait_ranks",
           "direct_s", "propagated_s", "total_s", "waited_s")
CSV_NAME = "mpi_root_causes.csv"
#: The critical path's table (critical_path.rows'): its columns, in order, and its name.
PATH_COLUMNS = ("activity", "site", "path_ranks", "path_s", "mean_s", "max_s", "imbalance_s",
                "saving_bound_s")
PATH_CSV_NAME = "mpi_critical_path.csv"


def _kind_name(key):
    """A wait kind's name: its report key without the unit ("late_sender")."""
    return key[:-2] if key.endswith("_s") else key


def _sync_id(rank, j, row):
    """Comm record j's sync id (row: its event_logs.ROW_COLUMNS), what the records of one
    meeting share: a message's send's rank and record (1, rank, record), a collective's key
    (2, group, number); None."""
    kind = row[0]
    if kind == SEND:
        return (1, rank, j)
    if kind == RECV and row[6] >= 0:
        return (1, row[5], row[6])
    if kind == COLL:
        return (2, row[2] if row[1] & EVF_GROUP else 0, row[3])
    return None


def _rank_timeline(rank, r, sp, names):
    """The DiskTimeline of one rank's thread 0 (its causes still records): its records read
    in order beside its Comm's rows (event_logs' "rows_at"), each call written as the next
    one comes (an MPI_Waitall's records may still change it), each sync id put on the
    record that completed its meeting (a nonblocking call's Wait: kept until then)."""
    tl = timeline.DiskTimeline(sp, names)
    rows = r["rows_at"].scan()
    later = {}  # comm record -> the sync id it completes (its I-record's), until it comes
    last, ncalls, j, off = None, 0, 0, r["offset_ns"]
    for rec in event_log_read.records(r):
        kind = rec[0]
        thread = rec[11] if len(rec) > 11 else 0
        if kind in _COMM:
            row = next(rows)
            s = _sync_id(rank, j, row)
            if s is not None:
                later[row[4] if row[4] >= 0 else j] = s
            s = later.pop(j, None)
        if kind == COUNTER or thread != 0:
            if kind in _COMM:
                tl.add_index(-1)
                j += 1
            continue
        if kind in (REGION_ENTER, REGION_EXIT):
            tl.add_region(rec[2] - off, 1 if kind == REGION_ENTER else -1, rec[1])
            continue
        t0, t1 = rec[2] - off, rec[3] - off
        if kind == WAIT and last is not None and (last[0], last[1], last[2]) == (t0, t1, rec[1]):
            # One record per request an MPI_Waitall (Waitsome ...) completed: one call on
            # the timeline, waiting for its latest request (else its time counts N times).
            tl.add_index(ncalls - 1)
            if row[7] > last[5]:
                last[4:] = [s, row[7], _kind_name(event_logs.KINDS[row[8]]),
                            row[9] if row[9] >= 0 else -1, row[10] if row[9] >= 0 else -1]
            j += 1
            continue
        if last is not None:
            tl.add_call(*last)
        last = [t0, t1, rec[1], rec[9], None, 0, None, -1, -1]
        if kind in _COMM:
            tl.add_index(ncalls)
            last[4] = s
            if row[7] > 0:
                last[5:7] = [row[7], _kind_name(event_logs.KINDS[row[8]])]
                if row[9] >= 0:
                    last[7:] = [row[9], row[10]]
            j += 1
        ncalls += 1
    if last is not None:
        tl.add_call(*last)
    tl.finish()
    return tl


def analyse(ranks):
    """root_causes.analyse of Logs (event_logs.load's), its wait states matched first."""
    return root_causes.analyse(*timelines(ranks))


def timelines(ranks):
    """({rank: timeline.DiskTimeline}, {rank: its regions}) of Logs (event_logs.load's),
    its wait states matched first: the per-rank timelines root_causes.analyse and
    critical_path.walk take, written to Logs' spill rank by rank, then each call's cause
    found in its causing rank's."""
    event_logs.wait_states(ranks)
    names = timeline.Interned()
    out = {}
    progress = Progress("writing the ranks' timelines", len(ranks), "ranks")
    for rank in sorted(ranks):
        out[rank] = _rank_timeline(rank, ranks[rank], ranks.spill, names)
        progress.step()
    progress.done()
    for tl in out.values():
        tl.resolve(out)
    return out, {r: tl.regions for r, tl in out.items()}


def site_names(ranks):
    """site_name(rank, site) of Logs: a return address in its own rank's process, named as
    its log names it (None where it does not)."""
    def site_name(rank, site):
        return ranks[rank].get("sites", {}).get(site)
    return site_name


def lines(ranks, directory):
    """What `papi_report DIR` adds of the root causes of Logs' waits: text()'s lines, and
    the table written as DIRECTORY/mpi_root_causes.csv (-o) when it has rows."""
    calls, regions = timelines(ranks)
    result = root_causes.analyse(calls, regions)
    site_name = site_names(ranks)
    rows = root_causes.rows(result, site_name)
    out = text(result, rows)
    if rows:
        out.append("root causes: the table in %s" % write_csv(directory, rows))
    path = critical_path.walk(calls, regions, steps=False)
    table = critical_path.rows(path, site_name)
    if table:
        out += critical_path.text(path, table)
        out.append("critical path: the table in %s"
                   % write_csv(directory, table, PATH_CSV_NAME, PATH_COLUMNS))
    return out


def advise(ranks):
    """(advice.findings', the critical path) of Logs: what to fix first."""
    calls, regions = timelines(ranks)
    path = critical_path.walk(calls, regions, steps=False)
    found = advice.findings(path, root_causes.analyse(calls, regions), site_names(ranks))
    return found, path


def path_of(ranks):
    """critical_path.walk of Logs (the side B of --compare's check of A's advice)."""
    return critical_path.walk(*timelines(ranks), steps=False)


def text(result, rows, most=5):
    """The summary's lines: the totals and the conservation check, then the banner of the
    largest causes (most of them)."""
    explained = result["waits"] - result["residual"]
    out = ["root causes of the waits (delay analysis, each rank's thread 0): %.6f s of waiting,"
           " %.6f s explained, %.6f s residual" % (result["waits"] * 1e-9, explained * 1e-9,
                                                   result["residual"] * 1e-9)]
    why = root_causes.check(result)
    if why:
        out.append("papi_report: %s" % why)
    out += [root_causes.banner(row) for row in rows[:most]]
    return out


def write_csv(directory, rows, name=CSV_NAME, columns=COLUMNS):
    """rows (root_causes.rows', or critical_path.rows' with PATH_CSV_NAME, PATH_COLUMNS, or
    advice.findings' with advice.CSV_NAME, advice.COLUMNS) as DIRECTORY/NAME; its path."""
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, name)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns)
        w.writeheader()
        for row in rows:
            w.writerow({k: _cell(k, v) for k, v in row.items()})
    return path


def _cell(column, value):
    """A CSV cell: seconds to the ns, booleans as the schemas read them."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "%.9f" % value if column.endswith("_s") else value
