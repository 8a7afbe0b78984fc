"""profile_fixture.py: hand-made profiles for papi_report's tests. papi_report reads a
run's job_profile_RUNID.json, which papi_run merges (run_sample_merge.c, papi_run
--merge); a test that makes up processes' profile_RUNID_PID.json documents makes their job
file with job_of (schema/profile_job.schema.json), the merge written out by hand here
as tests/run/check_sample_job.py checks papi_run's: stacks summed by (names, places),
threads' leaf functions by (rank, pid, tid, function)."""
import json
import os


def _path(doc, stack):
    """(names, places) of one stack: an inlined chain (a;b) is several names, the file
    and line belong to the innermost."""
    names, where = [], []
    for i in stack["frames"]:
        f = doc["frames"][i]
        parts = f["name"].split(";")
        names += parts
        where += [""] * (len(parts) - 1) + ["%s:%d" % (f["file"], f.get("line", 0)) if f.get("file") else ""]
    return ";".join(names), ";".join(where)


def _add(table, key, stack):
    e = table.setdefault(key, {"samples": 0, "counts": [0] * len(stack["counts"])})
    e["samples"] += stack["samples"]
    e["counts"] = [a + b for a, b in zip(e["counts"], stack["counts"])]


def job_of(docs):
    """The profile_job document of docs, one run's processes' profiles (same events)."""
    placed, threads = {}, {}
    for d in docs:
        for s in d["stacks"]:
            _add(placed, _path(d, s), s)
            _add(threads, (d["rank"], d["pid"], s["tid"], d["frames"][s["frames"][-1]]["name"]), s)
    first = docs[0]
    return {"kind": "profile_job", "run": first["run"], "events": first["events"],
            "metrics": first.get("metrics", []), "ranks_expected": None, "partial": False,
            "samples": sum(d.get("samples", 0) for d in docs),
            "lost_records": sum(d.get("lost_records", 0) for d in docs),
            "dropped_samples": sum(d.get("dropped_samples", 0) for d in docs),
            "dropped_weight": sum(d.get("dropped_weight", 0) for d in docs),
            "stack_cap": first.get("stack_cap", 0), "notes": first.get("notes", ""),
            "processes": [{"pid": d["pid"], "rank": d["rank"], "samples": d.get("samples", 0),
                           "lost_records": d.get("lost_records", 0), "dropped_samples": d.get("dropped_samples", 0),
                           "dropped_weight": d.get("dropped_weight", 0)} for d in docs],
            "stacks": [dict(stack=k[0], where=k[1], **e) for k, e in sorted(placed.items())],
            "thread_functions": [dict(rank=k[0], pid=k[1], tid=k[2], function=k[3], **e)
                                 for k, e in sorted(threads.items(), key=lambda kv: str(kv[0]))]}


def write_job(folder, docs):
    """folder/job_profile_RUNID.json of docs; its path."""
    path = os.path.join(folder, "job_profile_%s.json" % docs[0]["run"]["id"])
    with open(path, "w") as f:
        json.dump(job_of(docs), f)
    return path
