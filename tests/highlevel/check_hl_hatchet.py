#!/usr/bin/env python3
"""A 4-rank region directory (4 processes of hl_mixed_workload, PAPI_OUTPUT_DIRECTORY and
PMI_RANK 0..3) loaded with the logic of Hatchet's PAPI reader (hatchet/readers/
papi_reader.py; Hatchet itself is not needed): it lists the directory sorted, takes each
file's rank from its name (rank_000003.json -> 3), its metrics from the first file's
event_definitions plus cycles and real_time_nsec, builds the graph from the thread with
the most region instances (rank 0, thread "0" when none has more than one) and then looks
up ranks[str(rank)]["threads"][str(thread)]["regions"]: with threads keyed by OS thread id
(not PAPI 7's "0", "1", ...) that lookup raised KeyError. Each instance's metrics are read
as int(value) or int(value["region_value"]), its id and parent as int. Run once with one
instance per rank (the KeyError case) and once with three; then once more with
PAPI_TRACE=json (issue 56): the traces go to papi_hl_trace/, so papi_hl_output holds the
rank files alone, Hatchet's logic reads it, and so does papi_hl_output_writer (argv[2]:
both --type summary and detail, exit 0). Before, trace_rank_*.json in papi_hl_output made
the writer exit 2 and Hatchet's reader raise KeyError."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)
from checks import check, verdict  # noqa: E402

report_check.guard()

RANKS = 4


def make_dir(exe, args, trace):
    out = tempfile.mkdtemp(prefix="hl_hatchet_")
    for rank in range(RANKS):
        env = {k: v for k, v in os.environ.items() if not k.startswith("PAPI_")}
        env.update(PAPI_EVENTS="perf::PAGE-FAULTS", PAPI_OUTPUT_DIRECTORY=out,
                   PMI_RANK=str(rank))
        if trace:
            env["PAPI_TRACE"] = "json"
        p = subprocess.run([exe] + args, env=env, capture_output=True, text=True, timeout=60)
        if p.returncode == 77:
            print(p.stdout.strip())
            sys.exit(77)
        check(p.returncode == 0, "rank %d exited with %d: %s" % (rank, p.returncode, p.stderr))
    return out


def load(directory):
    """As Hatchet's PAPIReader.__init__ on a directory: {rank: threads}, the metrics."""
    ranks, metrics = {}, []
    for position, item in enumerate(sorted(os.listdir(directory))):
        stem = item.split("_", 1)[1].rsplit(".", 1)[0]
        rank = int(stem) if stem.lstrip("-").isdigit() else position
        with open(os.path.join(directory, item)) as f:
            data = json.load(f)
        if not metrics:
            metrics = list(data["event_definitions"])
        ranks[str(rank)] = data["threads"]
    return ranks, metrics + ["cycles", "real_time_nsec"]


def values(region, metrics):
    return {m: int(region[m]["region_value"]) if isinstance(region[m], dict) else int(region[m])
            for m in metrics}


def read(ranks, metrics):
    """As Hatchet's PAPIReader.read: rows (rank, thread, name, metrics), the graph first."""
    most, graph_rank, graph_thread = 1, 0, 0
    for rank, threads in ranks.items():
        for thread, t in threads.items():
            if len(t["regions"]) > most:
                most, graph_rank, graph_thread = len(t["regions"]), int(rank), int(thread)
    graph = ranks[str(graph_rank)][str(graph_thread)]["regions"]  # KeyError with tid keys
    rows, ids = [], {}
    for rid, r in graph.items():
        ids[int(rid)] = r["name"]
        parent = int(r["parent_region_id"])
        check(parent == -1 or parent in ids, "instance %s: parent %d not read before" % (rid, parent))
        rows.append((graph_rank, graph_thread, r["name"], values(r, metrics)))
    order = [ids[k] for k in ids]
    for rank, threads in ranks.items():
        for thread, t in threads.items():
            if (int(rank), int(thread)) == (graph_rank, graph_thread):
                continue
            pos = 0
            for r in t["regions"].values():
                while pos < len(order) and order[pos] != r["name"]:
                    pos += 1  # a graph region this thread lacks: zeros there
                check(pos < len(order), "rank %s thread %s: region %s does not match the graph"
                      % (rank, thread, r["name"]))
                rows.append((int(rank), int(thread), r["name"], values(r, metrics)))
                pos += 1
    return rows


def run_writer(writer, source):
    """papi_hl_output_writer on the directory: both views, exit 0 and the regions."""
    for kind in ("summary", "detail"):
        with tempfile.TemporaryDirectory(prefix="hl_hatchet_writer_") as cwd:
            p = subprocess.run([sys.executable, writer, "--source", source, "--type", kind],
                               cwd=cwd, capture_output=True, text=True, timeout=120)
            check(p.returncode == 0, "papi_hl_output_writer --type %s exited %d: %s"
                  % (kind, p.returncode, (p.stderr or p.stdout).strip()[-300:]))
            check("mixed" in p.stdout + "".join(
                open(os.path.join(cwd, n)).read() for n in os.listdir(cwd)),
                "papi_hl_output_writer --type %s: no region 'mixed' in its output" % kind)


def main():
    exe, writer = sys.argv[1], sys.argv[2]
    for args, names, trace in ((["once"], ["mixed"], False), ([], ["warm", "warm", "mixed"], False),
                               ([], ["warm", "warm", "mixed"], True)):
        directory = make_dir(exe, args, trace)
        source = os.path.join(directory, "papi_hl_output")
        files = sorted(os.listdir(source))
        check(files == ["rank_%06d.json" % r for r in range(RANKS)], "files %s" % files)
        if trace:
            tdir = os.path.join(directory, "papi_hl_trace")
            traces = sorted(os.listdir(tdir)) if os.path.isdir(tdir) else []
            check(traces == ["trace_rank_%06d.json" % r for r in range(RANKS)],
                  "PAPI_TRACE=json: papi_hl_trace/ holds %s, want each rank's trace" % traces)
            run_writer(writer, source)
        ranks, metrics = load(source)
        try:
            rows = read(ranks, metrics)
        except KeyError as e:
            check(False, "Hatchet's reader logic raised KeyError %s (thread keys %s)"
                  % (e, {r: list(t) for r, t in ranks.items()}))
            rows = []
        want = [(r, 0, n) for r in range(RANKS) for n in names]
        got = sorted((rank, thread, name) for rank, thread, name, _ in rows)
        check(got == sorted(want), "rows %s, want %s" % (got, sorted(want)))
        faults = [v["perf::PAGE-FAULTS"] for _, _, name, v in rows if name == "mixed"]
        check(faults == [40] * RANKS, "mixed's page faults per rank %s, want 40 each" % faults)
        for rank, threads in ranks.items():
            pid = None
            with open(os.path.join(source, "rank_%06d.json" % int(rank))) as f:
                pid = json.load(f)["pid"]
            check([t.get("tid") for t in threads.values()] == [pid],
                  "rank %s: thread tid fields %s, want the process id %s (its main thread)"
                  % (rank, [t.get("tid") for t in threads.values()], pid))
        print("%s%s: %d rows from %d ranks, threads %s" % (args or "three instances",
                                                          ", PAPI_TRACE=json" if trace else "",
                                                          len(rows), RANKS,
                                                        sorted({t for r in ranks.values() for t in r})))
        shutil.rmtree(directory)
    return verdict("check_hl_hatchet")


if __name__ == "__main__":
    sys.exit(main())
