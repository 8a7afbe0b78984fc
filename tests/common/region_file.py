"""region_file.py: hand-made region files, as the high-level API writes them for a rank
(rank_NNNNNN.json: schema/hl_output.schema.json), for the tests of papi_report's region
tables. Each test states its own values; this says the file's shape once.
    doc = region_doc({"7": {"0": region("solve", -1, 3000, {EV: 5})}}, events=[EV])
    path = write(folder, doc)     # folder/rank_000000.json
"""
import json
import os


def region(name, parent, t=1000, counts=None):
    """One region instance of a thread: entered once, t cycles and t ns, and the counts
    ({event: value}) read in it."""
    r = {"name": name, "parent_region_id": parent, "region_count": 1, "cycles": t,
         "real_time_nsec": t}
    r.update(counts or {})
    return r


def region_doc(threads, events=(), rank=0, **more):
    """A rank's region file: threads is {thread id: {region id: region}}; events are the
    counted events (perf_event deltas); more: further top-level keys (all_threads)."""
    doc = {"papi_version": "7.0.0.0", "rank": rank,
           "event_definitions": {e: {"component": "perf_event", "type": "delta"} for e in events},
           "threads": {tid: {"regions": regions} for tid, regions in threads.items()}}
    doc.update(more)
    return doc


def write(folder, doc):
    """doc written as its rank's region file in folder (made when missing); the file's path."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "rank_%06d.json" % doc["rank"])
    with open(path, "w") as f:
        json.dump(doc, f)
    return path
