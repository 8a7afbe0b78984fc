#!/usr/bin/python3
"""synthetic_profile.py DIR STACKS [RANKS]: a job's profile (job_profile_big.json,
schema/profile_job.schema.json) of STACKS distinct stacks over RANKS ranks (1 by
default), for papi_report at scale (issue 60 item 3): stack k is main;f_a;f_b;...;leaf_k%%97
(8 levels below main, its functions from k's digits in base 50), k+1 samples of 1 ms,
rank k %% RANKS. expected() gives the folded totals the report must write."""
import json
import os
import sys

DEPTH = 8
FANOUT = 50
PERIOD = 1000000
EVENT = "perf::TASK-CLOCK"  # the sampled event, profile_stacks.csv's weight column


def stack_names(k):
    names, x = ["main"], k
    for level in range(DEPTH):
        names.append("f%d_%d" % (level, x % FANOUT))
        x //= FANOUT
    names.append("leaf_%d" % (k % 97))
    return names


def job(nstacks, nranks=1):
    stacks, funcs = [], {}
    for k in range(nstacks):
        names = stack_names(k)
        stacks.append({"stack": ";".join(names), "where": ";".join([""] * len(names)),
                       "samples": k + 1, "counts": [(k + 1) * PERIOD]})
        key = (k % nranks, 1000 + k % nranks, 1000 + k % nranks, names[-1])
        f = funcs.setdefault(key, [0, 0])
        f[0] += k + 1
        f[1] += (k + 1) * PERIOD
    stacks.sort(key=lambda s: s["stack"])
    total = sum(s["samples"] for s in stacks)
    return {"kind": "profile_job",
            "run": {"id": "big", "command": "prog", "start": "2026-01-01T00:00:00Z", "host": "h"},
            "events": [EVENT], "metrics": [], "ranks_expected": None,
            "partial": False, "samples": total, "lost_records": 0, "dropped_samples": 0,
            "dropped_weight": 0, "stack_cap": 1 << 20, "notes": "",
            "processes": [{"pid": 1000 + r, "rank": r if nranks > 1 else None, "samples": 0,
                           "lost_records": 0, "dropped_samples": 0, "dropped_weight": 0}
                          for r in range(nranks)],
            "stacks": stacks,
            "thread_functions": [{"rank": k[0] if nranks > 1 else None, "pid": k[1], "tid": k[2],
                                  "function": k[3], "samples": v[0], "counts": [v[1]]}
                                 for k, v in sorted(funcs.items(), key=lambda kv: str(kv[0]))]}


def expected(nstacks):
    """{"stacks", "total" (the folded weight), "leaf_97" (the weight of stacks ending in
    leaf_0)}."""
    return {"stacks": nstacks, "total": PERIOD * nstacks * (nstacks + 1) // 2,
            "leaf_0": PERIOD * sum(k + 1 for k in range(0, nstacks, 97))}


def write(directory, nstacks, nranks=1):
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "job_profile_big.json"), "w", encoding="utf-8") as f:
        json.dump(job(nstacks, nranks), f)
    return expected(nstacks)


if __name__ == "__main__":
    print(json.dumps(write(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) if sys.argv[3:] else 1)))
