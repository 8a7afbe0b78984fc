"""papi_report.load.event_record: what a record of the MPI wrapper's event log is, by the
names of mpi-wrappers/event_log/event_record.h less their PMPI_EV_ and PMPI_ prefixes: its
kinds (SEND) and flags (EVF_WORLD), and the rendezvous size of waits/wait_rules.h. The
values come from the build's table, which gen_wrappers.py reads from those headers
(mpi_rules.py), so the two sides cannot drift; a name the header dropped fails here, at
import. A leaf: plain Python."""
from . import mpi_rules

_KINDS, _FLAGS = mpi_rules.RECORD_KINDS, mpi_rules.RECORD_FLAGS

#: What a record is (enum pmpi_ev_kind).
CALL, SEND, RECV, COLL, WAIT = (_KINDS[k] for k in ("CALL", "SEND", "RECV", "COLL", "WAIT"))
REGION_ENTER, REGION_EXIT, COUNTER = (_KINDS[k] for k in ("REGION_ENTER", "REGION_EXIT", "COUNTER"))
#: Its flags (PMPI_EVF_*).
EVF_SYNC, EVF_WORLD, EVF_ROOT, EVF_GROUP = (_FLAGS[f] for f in ("EVF_SYNC", "EVF_WORLD",
                                                                "EVF_ROOT", "EVF_GROUP"))
EVF_IDLE, EVF_POLL = _FLAGS["EVF_IDLE"], _FLAGS["EVF_POLL"]
#: A send of this many bytes or more is taken for a rendezvous (PMPI_RENDEZVOUS_BYTES).
RENDEZVOUS_BYTES = mpi_rules.WAIT_CONSTANTS["RENDEZVOUS_BYTES"]
