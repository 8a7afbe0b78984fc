#!/usr/bin/env python3
"""Run hl_regions_workload and check the JSON region report it writes at exit: it
parses, has PAPI 7's schema (event_definitions, threads -> regions, one entry per
instance, with name, parent_region_id, region_count, cycles, real_time_nsec, the events,
and {region_value, read_1, ...} after PAPI_hl_read), every region with its parent, our
per-name region_totals equal to the instances' sums, exact
page-fault counts (nested regions are inclusive, repeated regions add up), the thread ids
the workload printed; and PAPI 7's own papi_hl_output_writer reads it (summary, detail)."""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)
from checks import check, verdict  # noqa: E402

report_check.guard()



def run(exe, args, env_extra):
    out = tempfile.mkdtemp(prefix="hl_report_")
    env = dict(os.environ)
    for k in ("PAPI_EVENTS", "PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "SLURM_PROCID",
              "MPI_LOCALRANKID", "PAPI_REPORT"):
        env.pop(k, None)
    env.update(env_extra)
    env["PAPI_OUTPUT_DIRECTORY"] = out
    p = subprocess.run([exe] + args, env=env, capture_output=True, text=True, timeout=60)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    check(p.returncode == 0, "workload exited with %d" % p.returncode)
    tids = {}
    for line in p.stdout.splitlines():
        if line.startswith("TID "):
            _, who, tid = line.split()
            tids[who] = int(tid)
    files = glob.glob(os.path.join(out, "papi_hl_output", "rank_*.json"))
    check(len(files) == 1, "expected one report file, found %s" % files)
    if not files:
        sys.exit(1)
    with open(files[0]) as f:
        report = json.load(f)  # raises (test fails) if it does not parse
    check_papi_writer(os.path.join(out, "papi_hl_output"))
    shutil.rmtree(out)
    return report, os.path.basename(files[0]), tids, p.stdout


WRITER = "/usr/bin/papi_hl_output_writer"


def check_papi_writer(source):
    """PAPI 7's writer must read our files: summary and detail, raw and derived."""
    if not os.path.exists(WRITER):
        print("note: %s not installed (scripts/install-deps.sh installs papi-tools)" % WRITER)
        return
    for typ, out in (("summary", "papi_sum.json"), ("detail", "papi.json")):
        for notation in ("raw", "derived"):
            work = tempfile.mkdtemp(prefix="hl_writer_")
            p = subprocess.run([sys.executable, WRITER, "--source", source, "--type", typ,
                                "--notation", notation], cwd=work, capture_output=True,
                               text=True, timeout=60)
            check(p.returncode == 0, "papi_hl_output_writer --type %s --notation %s failed: %s"
                  % (typ, notation, p.stderr[-2000:]))
            path = os.path.join(work, out)
            if p.returncode == 0:
                with open(path) as f:
                    doc = json.load(f)
                check(doc, "papi_hl_output_writer %s %s wrote nothing" % (typ, notation))
                if typ == "summary" and notation == "raw":
                    check("outer" in doc and doc["outer"]["region_count"] >= 1,
                          "writer summary lacks region outer: %s" % list(doc))
                    # 6 threads x 2 instances of 100 + 50 k pages: PAPI 7's statistics
                    # are over instances, as on PAPI 7's own files.
                    wk = doc.get("work", {})
                    check(wk.get("region_count") == 12, "writer: work region_count %s" % wk.get("region_count"))
                    pf = wk.get("perf::PAGE-FAULTS")
                    if pf is not None:
                        check(pf == {"total": 2700, "min": 100, "median": 225.0, "max": 350},
                              "writer: work page faults per instance %s" % pf)
                if typ == "detail" and notation == "raw":
                    ranks = doc.get("ranks", {})
                    check(len(ranks) == 1, "writer detail ranks %s" % list(ranks))
            shutil.rmtree(work)


def value(v):
    """A value, or the region_value of one read midway."""
    return v["region_value"] if isinstance(v, dict) else v


def regions_by_thread(report):
    """Per OS thread id, per region name: PAPI 7's instances merged (count of instances,
    values summed, the read series of a single instance kept); each instance's parent is an
    instance of the same thread; the merged values equal our region_totals. The threads are
    keyed as PAPI 7 keys them, "0", "1", ... in the order of their ids, each with its OS
    thread id in "tid"."""
    out = {}
    keys = list(report["threads"])
    check(sorted(keys, key=int) == [str(i) for i in range(len(keys))],
          "thread keys %s, want 0..%d as PAPI 7 writes them" % (keys, len(keys) - 1))
    by_key = sorted(report["threads"].items(), key=lambda kv: int(kv[0]))
    os_ids = [t.get("tid") for _, t in by_key]
    check(all(isinstance(x, int) for x in os_ids) and os_ids == sorted(os_ids),
          "threads' tid fields %s are not the OS ids in the keys' order" % os_ids)
    for tid, t in report["threads"].items():
        regs = t["regions"]
        named = {}
        for rid, r in regs.items():
            parent = r["parent_region_id"]
            check(parent == -1 or (str(parent) in regs and int(parent) < int(rid)),
                  "instance %s of thread %s: parent %s is not an earlier instance" % (rid, tid, parent))
            check(r["region_count"] == 1, "instance %s has region_count %s" % (rid, r["region_count"]))
            m = named.setdefault(r["name"], {"region_count": 0, "instances": 0,
                                             "parent": regs[str(parent)]["name"] if parent != -1 else None})
            m["region_count"] += 1
            m["instances"] += 1
            for k, v in r.items():
                if k in ("name", "parent_region_id", "region_count"):
                    continue
                m[k] = v if m["instances"] == 1 else value(m[k]) + value(v)
        totals = report.get("region_totals", {}).get(tid, {})
        for name, m in named.items():
            tot = totals.get(name)
            check(tot is not None, "region_totals has no %s for thread %s" % (name, tid))
            if tot:
                check(tot["parent"] == m["parent"] and tot["region_count"] == m["region_count"],
                      "region_totals %s: %s, instances say %s" % (name, tot, m))
                for k, v in tot.items():
                    if k not in ("parent", "region_count", "cycles", "real_time_nsec"):
                        check(v == value(m.get(k)), "region_totals %s %s = %s, instances sum to %s"
                              % (name, k, v, value(m.get(k))))
        out[t.get("tid")] = named
    return out


def check_counts(report, tids, ev):
    threads = regions_by_thread(report)
    check(set(threads) == set(tids.values()),
          "thread ids %s, workload printed %s" % (sorted(threads), sorted(tids.values())))
    main = threads.get(tids.get("main"), {})
    want = {"outer": (1, 65, None), "inner": (2, 25, "outer"), "recursive": (1, 7, None),
            "after_stop": (1, 9, None), "warm": (1, None, None), "warm_inner": (1, None, "warm")}
    for name, (count, faults, parent) in want.items():
        r = main.get(name)
        check(r is not None, "main thread has no region %s" % name)
        if not r:
            continue
        check(r["region_count"] == count, "%s: region_count %s, want %d" % (name, r["region_count"], count))
        check(r["parent"] == parent, "%s: parent %s, want %s" % (name, r["parent"], parent))
        check(value(r["real_time_nsec"]) > 0, "%s: no real time" % name)
        check(value(r["cycles"]) > 0, "%s: no cycles" % name)
        if faults is not None:
            got = value(r.get(ev))
            check(got == faults, "%s: %s = %s, want %d" % (name, ev, got, faults))
    check('odd "name"\\\ttab' in main, "the escaped region name did not survive: %s" % list(main))
    if "outer" in main and "inner" in main:
        o, i = main["outer"], main["inner"]
        check(value(o["real_time_nsec"]) >= value(i["real_time_nsec"]), "inner real time above outer's")
        check(value(o[ev]) >= value(i[ev]), "nested regions do not add up")
        # outer was read once, after 10 + 20 pages: PAPI 7's {region_value, read_1}.
        check(isinstance(o[ev], dict) and o[ev].get("read_1") == 30 and len(o[ev]) == 2,
              "outer after PAPI_hl_read: %s, want {region_value: 65, read_1: 30}" % o[ev])
        check(isinstance(o["real_time_nsec"], dict) and "read_1" in o["real_time_nsec"],
              "outer real_time_nsec has no read_1: %s" % o["real_time_nsec"])
        check(not isinstance(i[ev], dict), "inner was never read but has reads: %s" % i[ev])
    for k in range(6):
        th = threads.get(tids.get("t%d" % k), {})
        w = th.get("work")
        check(w is not None, "thread t%d has no region work" % k)
        if w:
            check(w["region_count"] == 2, "t%d work count %s" % (k, w["region_count"]))
            check(w.get(ev) == 2 * (100 + 50 * k),
                  "t%d work %s = %s, want %d" % (k, ev, w.get(ev), 2 * (100 + 50 * k)))
            check(w["parent"] is None, "t%d work has a parent" % k)


def check_note_whole(note):
    """The note carries every reason whole, whatever its length (no 255-byte cut): the
    perf_event component's disabled reason as papi_component_avail gives it, and the
    note's own closing words."""
    avail = os.path.join(os.path.dirname(os.path.abspath(sys.argv[1])), "..", "..", "src-c",
                         "utils", "papi_component_avail")
    check(note.endswith("counting software events perf::TASK-CLOCK and perf::PAGE-FAULTS"),
          "the note was cut: %r" % note[-120:])
    if not os.access(avail, os.X_OK):
        return
    p = subprocess.run([avail, "--json"], capture_output=True, text=True, timeout=60)
    comps = json.loads(p.stdout).get("components", []) if p.returncode == 0 else []
    why = next((c.get("disabled_reason") for c in comps if c.get("name") == "perf_event"), "")
    if why:
        check("; perf_event: " + why in note, "the note lacks the whole perf_event reason "
              "(%d bytes): %r" % (len(why), note))
        print("note: %d bytes, the perf_event reason %d bytes, whole" % (len(note), len(why)))


def main():
    exe = sys.argv[1]
    # 1. PAPI_EVENTS, rank from papi_hl_set_rank, PAPI_REPORT=1 summary.
    rep, name, tids, out = run(exe, ["setrank"], {"PAPI_EVENTS": "perf::PAGE-FAULTS,perf::TASK-CLOCK,NO_SUCH_EVENT",
                                                   "PAPI_REPORT": "1", "PMI_RANK": "3"})
    check(name == "rank_000005.json", "file %s, want rank_000005.json" % name)
    check(rep["rank"] == 5 and rep["rank_source"] == "MPI", "rank %s from %s" % (rep["rank"], rep["rank_source"]))
    check(rep["event_source"] == "PAPI_EVENTS", "event_source %s" % rep["event_source"])
    check(list(rep["event_definitions"]) == ["perf::PAGE-FAULTS", "perf::TASK-CLOCK"],
          "events %s" % rep["event_definitions"])
    check(rep["event_definitions"]["perf::PAGE-FAULTS"] == {"component": "perf_event", "type": "delta",
                                                            "units": "", "scope": "thread"},
          "event definition %s" % rep["event_definitions"]["perf::PAGE-FAULTS"])
    check([s["name"] for s in rep["skipped_events"]] == ["NO_SUCH_EVENT"], "skipped %s" % rep["skipped_events"])
    check("PAPI high-level report" in out and "region outer" in out, "no PAPI_REPORT summary")
    check_counts(rep, tids, "perf::PAGE-FAULTS")
    # 2. No PAPI_EVENTS: the default list, or the software fallback on a machine without
    #    hardware events; the rank from the launcher's environment.
    rep, name, tids, out = run(exe, [], {"PMI_RANK": "3"})
    check(name == "rank_000003.json" and rep["rank_source"] == "PMI_RANK", "file %s rank %s" % (name, rep["rank_source"]))
    check("PAPI high-level report" not in out, "summary printed without PAPI_REPORT")
    if rep["event_source"] == "fallback":
        check(list(rep["event_definitions"]) == ["perf::TASK-CLOCK", "perf::PAGE-FAULTS"],
              "fallback events %s" % rep["event_definitions"])
        check("software events" in rep["note"], "fallback note missing: %r" % rep["note"])
        check_note_whole(rep["note"])
        check_counts(rep, tids, "perf::PAGE-FAULTS")
    else:
        check(rep["event_source"] == "default" and rep["event_definitions"], "event_source %s" % rep["event_source"])
    # 3. Neither: the process id names the file.
    rep, name, tids, out = run(exe, [], {"PAPI_EVENTS": "perf::PAGE-FAULTS"})
    check("rank" not in rep and name == "rank_%06d.json" % rep["pid"], "file %s for pid %s" % (name, rep["pid"]))
    check_counts(rep, tids, "perf::PAGE-FAULTS")
    # 4. A papi_hl_output left by an earlier run is set aside as papi_hl_output-<its time>,
    #    as PAPI 7 does, so the new directory holds only this run's file.
    out = tempfile.mkdtemp(prefix="hl_report_")
    old = os.path.join(out, "papi_hl_output")
    os.mkdir(old)
    with open(os.path.join(old, "rank_000007.json"), "w") as f:
        f.write("{}")
    stamp = 1577880000  # 2020-01-01 12:00:00 UTC
    os.utime(old, (stamp, stamp))
    set_aside = os.path.join(out, "papi_hl_output-" + time.strftime("%Y%m%d-%H%M%S", time.localtime(stamp)))
    report_check.broken(os.path.join(set_aside, "rank_000007.json"))  # "{}": a stand-in, not a report
    env = dict(os.environ, PAPI_OUTPUT_DIRECTORY=out, PAPI_EVENTS="perf::PAGE-FAULTS", PMI_RANK="3")
    p = subprocess.run([exe], env=env, capture_output=True, text=True, timeout=60)
    check(p.returncode == 0, "workload over an earlier run's directory exited with %d" % p.returncode)
    check(os.listdir(set_aside) == ["rank_000007.json"] if os.path.isdir(set_aside) else False,
          "the earlier run's directory was not renamed %s: %s" % (set_aside, sorted(os.listdir(out))))
    check(sorted(os.listdir(old)) == ["rank_000003.json"], "new papi_hl_output holds %s" % sorted(os.listdir(old)))
    shutil.rmtree(out)
    return verdict("check_hl_report")


if __name__ == "__main__":
    sys.exit(main())
