"""profile_fixture.py: hand-made profiles for papi_report's tests, merged by the build's
papi_run --merge as a run's are. papi_report reads a run's job_profile_RUNID.json, which
papi_run merges from the .sample_RUNID_PID.txt every sampled process leaves
(run_sample_merge.c); a test that makes up processes' profile documents
(schema/profile.schema.json) writes each as the lines its process would have left
(sample_lines: its stacks block, the hand-over form of run_sample_stacks.h: the frames'
names, then the events, counts, run header, -m metrics and every stack's thread, samples,
weights, frames and places) and has papi_run --merge write the job file:
there is no second merge here.

The one Python merge of profiles is an oracle: tests/run/check_sample_job.py's merged()
recomputes the job file's stacks (by names and places) and threads' functions
independently from a real run's profile_RUNID_PID.json and compares them with papi_run's.
The tests that use this fixture compare papi_report's tables with values worked out by
hand from their made-up counts (check_profile_metrics.py, check_report_profile.py,
check_report_page.py)."""
import json
import os
import subprocess
import tempfile


def _place(f):
    """A frame's place in a stack's head: "" for the outer names of an inlined chain
    (a;b), file:line for the innermost when it has a file."""
    parts = f["name"].split(";")
    return ";" * (len(parts) - 1) + ("%s:%d" % (f["file"], f.get("line", 0)) if f.get("file") else "")


def _metric_line(m):
    """PAPI_RUN_SAMPLE_METRICS's line of a profile's metric: NAME, UNIT, FORMULA, then
    each event and its place."""
    terms = "".join("\t%s\t%d" % (ev, place) for ev, place in m["terms"].items())
    return "%s\t%s\t%s%s" % (m["name"], m["unit"], m["formula"], terms)


def sample_lines(doc):
    """The .sample_RUNID_PID.txt a process of profile doc would have left: its stacks block
    (src-c/utils/papi_run/run_sample_stacks.h), the frames' names once each."""
    run = doc["run"]
    rank = doc.get("rank")
    items = ["events\t" + "\t".join(doc["events"]),
             "counts %d %d %d %d" % (doc.get("samples", 0), doc.get("lost_records", 0),
                                     doc.get("stack_cap", 0), doc.get("dropped_weight", 0)),
             "call_graph %s\t%s" % (doc.get("call_graph", "fp"), doc.get("call_graph_reason", ""))]
    if doc.get("notes"):
        items.append("note " + doc["notes"])
    items.append("rank %d" % (-1 if rank is None else rank))
    for key in ("command", "start", "host"):
        items.append("run_%s %s" % (key, run.get(key, "").replace("\\", "\\\\").replace("\n", "\\n")))
    items += ["metric " + _metric_line(m) for m in doc.get("metrics", [])]
    for s in doc["stacks"]:
        frames = [doc["frames"][i] for i in s["frames"]]
        items.append("stack %d %d %d %d %s %s\t%s" % (
            s["tid"], s["samples"], len(frames[-1]["name"].split(";")), len(frames),
            " ".join(str(c) for c in s["counts"]), " ".join(str(i) for i in s["frames"]),
            ";".join(_place(f) for f in frames)))
    out = ["stacks %d %d %d %d" % (doc["pid"], len(doc["frames"]), len(items), doc.get("dropped_samples", 0))]
    out += ["n " + f["name"] for f in doc["frames"]] + items
    return "\n".join(out) + "\n"


def write_job(papi_run, folder, docs):
    """folder/job_profile_RUNID.json of docs, one run's processes' profiles (same events),
    written by papi_run --merge from their .sample files (left in folder); its path."""
    os.makedirs(folder, exist_ok=True)
    run_id = docs[0]["run"]["id"]
    for d in docs:
        with open(os.path.join(folder, ".sample_%s_%d.txt" % (run_id, d["pid"])), "w") as f:
            f.write(sample_lines(d))
    p = subprocess.run([papi_run, "--merge", folder, "--run", run_id], capture_output=True,
                       text=True, timeout=120)
    path = os.path.join(folder, "job_profile_%s.json" % run_id)
    if p.returncode != 0 or not os.path.exists(path):
        raise RuntimeError("papi_run --merge %s --run %s: exit status %d\n%s" % (
            folder, run_id, p.returncode, p.stderr))
    return path


def job_of(papi_run, docs):
    """The profile_job document papi_run --merge makes of docs."""
    with tempfile.TemporaryDirectory(prefix="profile_fixture_") as tmp:
        with open(write_job(papi_run, tmp, docs)) as f:
            return json.load(f)
