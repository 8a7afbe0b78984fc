#!/usr/bin/env python3
"""check_sample_limits.py: what the kernel and papi_run's bounds allow papi_run --sample,
on perf::TASK-CLOCK (sample_work.c).

  check_sample_limits.py CASE PAPI_RUN SAMPLE_WORK [SHIM...]

CASE: kernel (where the kernel lets this user sample kernel mode, root or
perf_event_paranoid <= 1: sys_work, which makes write() system calls with the instruction
inline, has [kernel] frames right under it, as the leaf, for at least 20% of its weight,
and the profile says kernel_frames true), cap (--sample-stacks 5 on recursions to each
depth 1 to 20, 20 distinct stacks at least: exactly 5 stacks kept, dropped_samples and dropped_weight > 0, the kept stacks' samples + dropped
= all samples and their weight + dropped_weight = samples x period exactly; profile.folded
holds the kept weight; the banner's dropped line gives the same numbers, and its notes say
the cap dropped stacks), refused (SHIM...: refuse_sampling.so making perf_event_open fail
for every sampling attr with EACCES, then with EOPNOTSUPP, preloaded into papi_run: one
line on stderr naming the reason before the banner, the program runs counted, not
sampled: its exit status (3) is papi_run's, its counts are in the banner and the rank
file, whose note says not sampled, and no profile is left; --per-thread beside it keeps its
4 thread rows)."""
import glob
import json
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_sample import EVENT, fail, folded, profiles, run, self_of  # noqa: E402

PERIOD = int(EVENT.split("@")[1])


def case_kernel(papi_run, prog, out):
    try:
        level = int(open("/proc/sys/kernel/perf_event_paranoid").read())
    except (OSError, ValueError):
        level = 3
    if os.geteuid() != 0 and level > 1:
        print("SKIPPED: kernel mode cannot be sampled by this user (perf_event_paranoid %d, not root)" % level)
        sys.exit(77)
    rc, _, err = run([papi_run, "--sample", EVENT, "-o", out, "--", prog, "syscalls", "20"])
    if rc != 0:
        fail("exit status %d\n%s" % (rc, err))
    (d,) = profiles(out)
    stacks = folded(out)
    under = sum(c for s, c in stacks.items() if "sys_work" in s.split(";"))
    kernel = sum(c for s, c in stacks.items() if s.endswith(";sys_work;[kernel]"))
    inner = [s for s in stacks if "[kernel]" in s.split(";")[:-1]]
    if not d["kernel_frames"] or "kernel frames not sampled" in err:
        fail("kernel_frames %s where the kernel allows them:\n%s" % (d["kernel_frames"], err))
    if inner:
        fail("[kernel] is the leaf of a stack, never above user frames: %s" % inner[:3])
    if not under or kernel < 0.2 * under:
        fail("sys_work %d ns sampled, %d of them in [kernel] right under it (20%% at least expected): %s"
             % (under, kernel, sorted(stacks.items(), key=lambda kv: -kv[1])[:5]))
    print("kernel: sys_work %d ns sampled, %.1f%% in [kernel] under it; kernel_frames true"
          % (under, 100.0 * kernel / under))


def case_cap(papi_run, prog, out):
    cap = 5
    rc, _, err = run([papi_run, "--sample", EVENT, "--sample-stacks", str(cap), "-o", out, "--",
                      prog, "ladder", "5"])
    if rc != 0:
        fail("exit status %d\n%s" % (rc, err))
    (d,) = profiles(out)
    kept = sum(s["samples"] for s in d["stacks"])
    weight = sum(s["counts"][0] for s in d["stacks"])
    if d["stack_cap"] != cap or d["distinct_stacks"] != cap or len(d["stacks"]) != cap:
        fail("stack_cap %s, distinct_stacks %s, %d stacks: %d each expected"
             % (d["stack_cap"], d["distinct_stacks"], len(d["stacks"]), cap))
    if not d["dropped_samples"] or not d["dropped_weight"]:
        fail("nothing dropped past a cap of %d on a recursion: %s" % (cap, d["dropped_samples"]))
    if kept + d["dropped_samples"] != d["samples"] or weight + d["dropped_weight"] != d["samples"] * PERIOD:
        fail("kept %d + dropped %d samples against %d; weight %d + dropped %d against %d x %d"
             % (kept, d["dropped_samples"], d["samples"], weight, d["dropped_weight"], d["samples"], PERIOD))
    if sum(folded(out).values()) != weight:
        fail("profile.folded holds %d, the kept stacks %d" % (sum(folded(out).values()), weight))
    m = re.search(r"dropped: (\d+) samples \((\d+) perf::TASK-CLOCK, ([0-9.]+)% of all sampled\) past "
                  r"the cap of (\d+) distinct stacks", err)
    share = 100.0 * d["dropped_weight"] / (d["samples"] * PERIOD)
    if not m or [int(m.group(k)) for k in (1, 2, 4)] != [d["dropped_samples"], d["dropped_weight"], cap] \
            or abs(float(m.group(3)) - share) > 0.006:
        fail("the banner's dropped line against the profile's %d samples, %d ns (%.2f%%), cap %d:\n%s"
             % (d["dropped_samples"], d["dropped_weight"], share, cap, err))
    if "distinct stacks past the cap were dropped" not in err or "past the cap" not in d["notes"]:
        fail("no note on the cap: banner\n%s\nprofile notes %r" % (err, d["notes"]))
    print("cap: %d stacks kept (%d samples, %d ns), %d samples (%d ns, %.1f%%) dropped of %d"
          % (cap, kept, weight, d["dropped_samples"], d["dropped_weight"], share, d["samples"]))


def case_refused(papi_run, prog, out, *shims):
    for shim, reason in zip(shims, ("Permission denied", "Operation not supported")):
        d = os.path.join(out, os.path.basename(shim))
        env = dict(os.environ, LD_PRELOAD=shim)
        rc, _, err = run([papi_run, "--sample", EVENT, "-o", d, "--", prog, "split", "4", "3"], env=env)
        said = [ln for ln in err.splitlines() if ln.startswith("papi_run:")]
        if rc != 3:
            fail("%s: exit status %d, the program's 3 expected\n%s" % (reason, rc, err))
        if len(said) != 1 or reason not in said[0] or not said[0].endswith(
                "the program runs counted, not sampled") or err.find(said[0]) > err.find("Performance counter stats"):
            fail("%s: one line naming it before the banner expected:\n%s" % (reason, err))
        if reason == "Permission denied" and "perf_event_paranoid" not in said[0]:
            fail("EACCES: the line does not name kernel.perf_event_paranoid: %s" % said[0])
        if glob.glob(os.path.join(d, "**", "*profile*"), recursive=True) or "top functions" in err:
            fail("%s: a profile was left by a run that was not sampled" % reason)
        (rank,) = [json.load(open(f)) for f in glob.glob(os.path.join(d, "**", "rank_*.json"), recursive=True)]
        totals = rank["process_totals"]
        counts = {k: totals.get(k) for k in ("perf::TASK-CLOCK", "real_time_nsec")}
        if "not sampled: perf::TASK-CLOCK" not in rank["note"] or rank["exit_status"] != 3 or \
                not all(isinstance(v, int) and v > 0 for v in counts.values()):
            fail("%s: the rank file: note %r, exit_status %s, counts %s" % (reason, rank["note"], rank["exit_status"], counts))
        print("refused: %s: %r; counted %s, exit 3" % (reason, said[0], counts))
    # The note saying why is no reason to drop --per-thread's rows: main, 2 threads, the child.
    d = os.path.join(out, "per_thread")
    rc, _, err = run([papi_run, "--per-thread", "--sample", EVENT, "-o", d, "--", prog, "threads", "4"],
                     env=dict(os.environ, LD_PRELOAD=shims[0]))
    rows = [json.load(open(f)) for f in glob.glob(os.path.join(d, "**", "rank_*.json"), recursive=True)]
    if rc != 0 or len(rows) != 1 or len(rows[0]["threads"]) != 4:
        fail("--per-thread beside a refused --sample: exit %d, %s thread rows (4 expected)\n%s"
             % (rc, [len(r["threads"]) for r in rows], err))
    print("refused: --per-thread still has its 4 thread rows")


def main():
    case, papi_run, prog = sys.argv[1:4]
    out = tempfile.mkdtemp(prefix="papi_sample_")
    try:
        globals()["case_" + case](papi_run, prog, out, *sys.argv[4:])
    finally:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
