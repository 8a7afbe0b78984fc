"""papi_report.load.mpi_rules: the rules papi_report applies as the MPI wrapper does, from the
wrapper's one list (mpi-wrappers/wait_kinds.list and the wait= column of mpi_calls.list):
the wait kinds in the report's order with their words and colours, and each collective's
wait kind; and what the wrapper's headers say of its event log's records
(mpi-wrappers/event_log/event_record.h, waits/wait_rules.h). The build writes them here as
_mpi_rules.py (`gen_wrappers.py python`), installed beside this file; run from the source
tree, where no build wrote one, the same generator reads the same lists and headers now. A leaf: plain Python, no pandas."""
import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
WRAPPERS = os.path.join(HERE, "..", "..", "..", "mpi-wrappers")


def _from_lists():
    """The table as the build writes it, generated now from the source tree's lists."""
    gen_path = os.path.join(WRAPPERS, "gen_wrappers.py")
    if not os.path.isfile(gen_path):
        raise ImportError("papi_report: no _mpi_rules.py beside %s (written by the build) and no "
                          "%s to make it from" % (HERE, os.path.abspath(gen_path)))
    spec = importlib.util.spec_from_file_location("papi_gen_wrappers", gen_path)
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    lists = os.path.join(WRAPPERS, "mpi_calls.list")
    table = {}
    exec(compile(gen.gen_python(gen.parse(lists), gen.wait_list(lists)[0]), lists, "exec"), table)
    return table


try:
    from . import _mpi_rules as _built
    _TABLE = vars(_built)
    SOURCE = "built"
except ImportError:
    _TABLE = _from_lists()
    SOURCE = "lists"

#: The wait kinds, in the report's order (the wrapper's enum): "late_sender" ...
WAIT_KINDS = [k[0] for k in _TABLE["WAIT_KINDS"]]
#: Their keys in the report, its tables and the event logs' recomputation: "late_sender_s" ...
REPORT_KEYS = [k + "_s" for k in WAIT_KINDS]
#: What each waits for: "send" (a receive, its message's send), "receive" (a synchronous or
#: rendezvous send, its receive's post), "all" (the last arrival), "root" (the root's, on the
#: other ranks), "nonroot" (the last other rank's, on the root).
WAITS_FOR = {k[0]: k[1] for k in _TABLE["WAIT_KINDS"]}
#: The timeline's legend and colours.
LABELS = {k[0]: k[3] for k in _TABLE["WAIT_KINDS"]}
COLOURS = {k[0]: k[4] for k in _TABLE["WAIT_KINDS"]}
#: Each collective's wait kind ("MPI_Allreduce": "wait_nxn"); a call not here has none.
COLL_WAITS = dict(_TABLE["COLL_WAITS"])
#: The collectives that make no request (the nonblocking and persistent forms do).
BLOCKING_COLLS = frozenset(_TABLE["BLOCKING_COLLS"])
#: The point-to-point calls that send and make no request (MPI_Send, MPI_Sendrecv ...).
BLOCKING_SENDS = frozenset(_TABLE["BLOCKING_SENDS"])
#: The synchronous sends (the event log flags them EVF_SYNC): they wait for their receive.
SYNC_SENDS = frozenset(_TABLE["SYNC_SENDS"])
#: The event log's record kinds ("SEND": 2), flags ("EVF_SYNC": 1) and the wait rules'
#: constants ("RENDEZVOUS_BYTES"), as the wrapper's headers define them (event_record.py
#: names them).
RECORD_KINDS = dict(_TABLE["RECORD_KINDS"])
RECORD_FLAGS = dict(_TABLE["RECORD_FLAGS"])
WAIT_CONSTANTS = dict(_TABLE["WAIT_CONSTANTS"])
