"""papi_report.load.log_delays: the root causes of a dead job's wait states (its event logs,
event_logs.py) by the delay analysis (root_causes.py), and its critical path by the
backward replay (critical_path.py), over the same timelines: each rank's records turned into
root_causes' calls (thread 0's: the analysis compares one timeline per rank), each with
the wait event_logs matched and what it waited for, and its MPI_Pcontrol regions.
Every rank's calls are held in memory at once (the replay goes back and forth between
ranks): a job's records, not one rank's, unlike the wait states. Plain Python."""
import csv
import os

from . import activities, advice, critical_path, event_log_read, event_logs, root_causes
from .event_record import COLL, COUNTER, EVF_GROUP, RECV, REGION_ENTER, REGION_EXIT, SEND, WAIT

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


def _sync_ids(rank, c, mate_rank, mate):
    """{comm record: sync id}: what the records of one meeting share (a message: its send's
    rank and record; a collective: its key), put on the record that completed it (a
    nonblocking call's Wait)."""
    out = {}
    for j in range(len(c)):
        kind = c.kind[j]
        if kind == SEND:
            s = ("p2p", rank, j)
        elif kind == RECV and mate[j] >= 0:
            s = ("p2p", mate_rank[j], mate[j])
        elif kind == COLL:
            s = ("coll", c.group[j] if c.flags[j] & EVF_GROUP else 0, c.tag[j])
        else:
            continue
        out[c.waiter[j] if c.waiter[j] >= 0 else j] = s
    return out


def _rank_calls(rank, r, spill):
    """(calls without causes yet, regions, {comm record: call index}, {call index: cause
    (rank, comm record)}) of one rank's thread 0."""
    c = spill.get(r["comm_at"])
    wait, wkind = spill.get(r["waits_at"])
    cause_rank, cause, mate_rank, mate = spill.get(r["causes_at"])
    sync = _sync_ids(rank, c, mate_rank, mate)
    calls, regions, index, causes, j, off = [], [], {}, {}, 0, r["offset_ns"]
    for rec in event_log_read.records(r):
        kind = rec[0]
        thread = rec[11] if len(rec) > 11 else 0
        if kind == COUNTER or thread != 0:
            j += 1 if kind in _COMM else 0
            continue
        if kind in (REGION_ENTER, REGION_EXIT):
            regions.append((rec[2] - off, 1 if kind == REGION_ENTER else -1, rec[1]))
            continue
        w, k, s = 0, None, None
        t0, t1 = rec[2] - off, rec[3] - off
        if kind == WAIT and calls and \
                (calls[-1].t0, calls[-1].t1, calls[-1].name) == (t0, t1, rec[1]):
            # One record per request an MPI_Waitall (Waitsome ...) completed: one call on
            # the timeline, waiting for its latest request (else its time counts N times).
            last = len(calls) - 1
            index[j] = last
            if wait[j] > calls[last].wait:
                calls[last] = calls[last]._replace(
                    sync=sync.get(j), wait=wait[j], kind=_kind_name(event_logs.KINDS[wkind[j]]))
                causes.pop(last, None)
                if cause_rank[j] >= 0:
                    causes[last] = (cause_rank[j], cause[j])
            j += 1
            continue
        if kind in _COMM:
            index[j] = len(calls)
            s = sync.get(j)
            if wait[j] > 0:
                w, k = wait[j], _kind_name(event_logs.KINDS[wkind[j]])
                if cause_rank[j] >= 0:
                    causes[len(calls)] = (cause_rank[j], cause[j])
            j += 1
        calls.append(activities.Call(t0, t1, rec[1], rec[9], s, w, k, None))
    return calls, regions, index, causes


def analyse(ranks):
    """root_causes.analyse of Logs (event_logs.load's), its wait states matched first."""
    return root_causes.analyse(*timelines(ranks))


def timelines(ranks):
    """(calls, regions) of Logs (event_logs.load's), its wait states matched first: the
    per-rank timelines root_causes.analyse and critical_path.walk take."""
    event_logs.wait_states(ranks)
    calls, regions, index, causes = {}, {}, {}, {}
    for rank in sorted(ranks):
        calls[rank], regions[rank], index[rank], causes[rank] = \
            _rank_calls(rank, ranks[rank], ranks.spill)
    for rank, found in causes.items():
        for i, (cr, cj) in found.items():
            ci = index.get(cr, {}).get(cj)  # None: another thread's record, not compared
            if ci is not None:
                calls[rank][i] = calls[rank][i]._replace(cause=(cr, ci))
    return calls, regions


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
    path = critical_path.walk(calls, regions)
    table = critical_path.rows(path, site_name)
    if table:
        out += critical_path.text(path, table)
        out.append("critical path: the table in %s"
                   % write_csv(directory, table, PATH_CSV_NAME, PATH_COLUMNS))
    return out


def advise(ranks):
    """(advice.findings', the critical path) of Logs: what to fix first."""
    calls, regions = timelines(ranks)
    path = critical_path.walk(calls, regions)
    found = advice.findings(path, root_causes.analyse(calls, regions), site_names(ranks))
    return found, path


def path_of(ranks):
    """critical_path.walk of Logs (the side B of --compare's check of A's advice)."""
    return critical_path.walk(*timelines(ranks))


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
