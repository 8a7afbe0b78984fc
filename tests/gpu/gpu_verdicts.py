"""gpu_verdicts.py: the prepared GPU check's verdicts (run_gpu_check.py), from what the
run left, as plain data, so that they are tested on recorded inputs where there is no GPU
(test_gpu_verdicts.py). Each verdict is {"pass": bool, "detail": str, ...figures}.

Inputs:
- truth: gpu_check's file (gpu_check.cu): per region its wall-clock window, its kernels
  (by the start of their names: launch times in ms from cudaEvents, or a count), bytes
  copied, FP64 FMAs; the kernels launched outside every region.
- region: the region API's file (papi_hl_output/rank_*.json): gpu_regions and, with GPM,
  region_totals' counter forms (gpm_sm_activity_ns, gpm_dram_bandwidth_ns).
- run_gpu: papi_run --gpu's gpu_activity_RUNID_PID.json.
- dmon: the text of `nvidia-smi dmon --gpm-metrics 2,10 -o DT` taken during the run.
- nvml: papi_command_line --json of the nvml events; smi: nvidia-smi --query-gpu's lines,
  one read just before papi_command_line and one just after (the bracket)."""
import re
import time

DURATION_TOLERANCE = 0.05  # each kernel's mean within 5 % of its cudaEvent timing
GPM_TOLERANCE_POINTS = 10.0  # GPM's average beside dmon's samples, percentage points
TIME_LIMIT_S = 120.0


def _kernels_of(section):
    return section.get("kernels", []) if section else []


def _launches(section, key):
    """Launches and total ns of the kernel rows whose name holds key ("spin_kernel<1>")."""
    n = ns = 0
    for k in _kernels_of(section):
        if _matches(k["name"], key):
            n += k["launches"]
            ns += k["total_ns"]
    return n, ns


def _matches(name, key):
    """A demangled name of the kernel key: key followed by "(" or the end, after an
    optional return type ("void spin_kernel<1>(long long, int*)")."""
    return re.search(r"(^|[\s:])%s(\(|$)" % re.escape(key), name) is not None


def _count(v):
    return len(v) if isinstance(v, list) else int(v)


def gpu_sections(region):
    """gpu_regions of the region file's first thread (the program's main thread)."""
    threads = region.get("gpu_regions") or {}
    return threads.get("0", {}) if threads else {}


def kernel_count(truth, region, run_gpu):
    """Every region's kernels exact (each key's launches, and no other kernel), and papi_run's
    file's total launches the program's."""
    sections, fails, total = gpu_sections(region), [], 0
    for name, r in truth["regions"].items():
        sec = sections.get(name)
        want = {k: _count(v) for k, v in r["kernels"].items()}
        total += sum(want.values())
        got = {k: _launches(sec, k)[0] for k in want}
        if got != want:
            fails.append("%s: launches %s, want %s" % (name, got, want))
        others = [k["name"] for k in _kernels_of(sec)
                  if not any(_matches(k["name"], key) for key in want)]
        if others:
            fails.append("%s: kernels it did not launch: %s" % (name, others))
    total += sum(_count(v) for v in truth.get("outside", {}).values())
    run_total = (run_gpu or {}).get("gpu", {}).get("total", {}).get("kernel_launches")
    if run_total != total:
        fails.append("papi_run --gpu's file: %s launches, want %d" % (run_total, total))
    return {"pass": not fails, "detail": "; ".join(fails) or "every region's launches exact",
            "launches": total}


def durations(truth, region):
    """Each timed kernel's mean duration (kernel table) within 5 % of its cudaEvent mean."""
    sections, fails, figures = gpu_sections(region), [], {}
    for name, r in truth["regions"].items():
        for key, times in r["kernels"].items():
            if not isinstance(times, list):
                continue
            n, ns = _launches(sections.get(name), key)
            want_ns = sum(times) / len(times) * 1e6
            got_ns = ns / n if n else None
            err = abs(got_ns - want_ns) / want_ns if got_ns else None
            figures[key] = {"cupti_mean_ns": got_ns, "event_mean_ns": round(want_ns),
                            "error": round(err, 4) if err is not None else None}
            if err is None or err > DURATION_TOLERANCE:
                fails.append("%s %s: %s ns, cudaEvent %d ns" % (name, key, got_ns, want_ns))
    return {"pass": bool(figures) and not fails, "kernels": figures,
            "detail": "; ".join(fails) or "within %d %%" % (DURATION_TOLERANCE * 100)}


def copy_bytes(truth, region):
    """The bytes of each direction exact in the region that copied them."""
    fails, sections = [], gpu_sections(region)
    for name, r in truth["regions"].items():
        if "bytes" not in r or not isinstance(r["bytes"], dict):
            continue
        copies = (sections.get(name) or {}).get("copies", {})
        got = {d: copies.get(d, {}).get("bytes") for d in r["bytes"]}
        if got != r["bytes"]:
            fails.append("%s: %s, want %s" % (name, got, r["bytes"]))
    return {"pass": not fails, "detail": "; ".join(fails) or "exact"}


def kernels_in_regions(truth, region):
    """No region holds a kernel another region launched."""
    sections, fails = gpu_sections(region), []
    for name, sec in sections.items():
        own = truth["regions"].get(name, {}).get("kernels", {})
        for other, r in truth["regions"].items():
            if other == name:
                continue
            for key in r["kernels"]:
                if key not in own and _launches(sec, key)[0]:
                    fails.append("%s holds %s of %s" % (name, key, other))
    missing = [n for n, r in truth["regions"].items() if r["kernels"] and n not in sections]
    if missing:
        fails.append("no GPU section for %s" % missing)
    return {"pass": not fails, "detail": "; ".join(fails) or "each kernel in its region"}


def parse_dmon(text):
    """nvidia-smi dmon -o DT's lines: (column names, [(epoch seconds, {name: value})]).
    The names are the first header line's ('#' removed), lowercased; "-" values are
    left out. Times are the local wall clock dmon prints (Date YYYYMMDD, Time HH:MM:SS)."""
    names, rows = None, []
    for line in text.splitlines():
        if line.startswith("#"):
            if names is None:
                names = line.lstrip("#").lower().split()
            continue
        f = line.split()
        if not names or len(f) != len(names):
            continue
        rec = dict(zip(names, f))
        try:
            t = time.mktime(time.strptime(rec["date"] + " " + rec["time"], "%Y%m%d %H:%M:%S"))
        except (KeyError, ValueError):
            continue
        vals = {}
        for k, v in rec.items():
            try:
                vals[k] = float(v)
            except ValueError:
                pass
        rows.append((t, vals))
    return names or [], rows


# dmon --gpm-metrics 2,10's columns: "smutil" and "dram" on an H100 (driver 580, checked);
# the other spellings are kept for other drivers.
DMON_COLUMNS = {"sm": ("smutil", "smact", "sm_act", "smactivity", "gpmsm"),
                "dram": ("dram", "dramact", "drambw", "dram_bw", "dramutil")}


def _column(names, what):
    for cand in DMON_COLUMNS[what]:
        for n in names:
            if n == cand or n.replace("_", "") == cand.replace("_", ""):
                return n
    return None


def _gpm_pct(region, name, event_suffix):
    """A region's GPM average in %: its counter form (ns at 100 %) over its wall time."""
    totals = (region.get("region_totals") or {}).get("0", {}).get(name, {})
    for ev, v in totals.items():
        if ev.endswith(event_suffix) and totals.get("real_time_nsec"):
            return 100.0 * v / totals["real_time_nsec"], ev
    return None, None


def gpm_vs_dmon(truth, region, dmon_text):
    """GPM SM activity in region "sm" and DRAM bandwidth in region "dram" beside the mean of
    dmon's samples taken inside the region (its first and last second left out)."""
    names, rows = parse_dmon(dmon_text)
    out, fails = {}, []
    for what, reg, suffix in (("sm", "sm", ":gpm_sm_activity_ns"),
                              ("dram", "dram", ":gpm_dram_bandwidth_ns")):
        gpm, ev = _gpm_pct(region, reg, suffix)
        col = _column(names, what)
        r = truth["regions"].get(reg, {})
        inside = [v[col] for t, v in rows
                  if col in v and r and r["begin_s"] + 1 <= t <= r["end_s"] - 1]
        smi = sum(inside) / len(inside) if inside else None
        out[what] = {"gpm_pct": gpm, "event": ev, "dmon_pct": smi, "dmon_column": col,
                     "dmon_samples": len(inside)}
        if gpm is None:
            fails.append("%s: no GPM counter in region %s (region_totals)" % (what, reg))
        elif col is None:
            fails.append("%s: no dmon column among %s (header: %s)"
                         % (what, DMON_COLUMNS[what], names))
        elif smi is None:
            fails.append("%s: no dmon sample inside region %s" % (what, reg))
        elif abs(gpm - smi) > GPM_TOLERANCE_POINTS:
            fails.append("%s: GPM %.1f %%, dmon %.1f %%" % (what, gpm, smi))
    out.update({"pass": not fails, "detail": "; ".join(fails) or
                "within %g points" % GPM_TOLERANCE_POINTS})
    return out


# nvml event (name's end) -> (nvidia-smi field, factor from the event's unit to nvidia-smi's,
# margin beyond the bracket of nvidia-smi's two readings: ("abs", x) or ("rel", fraction of
# the bracket's edge)). An idle GPU's clocks and power move between two reads a few ms
# apart (an H100 at idle: SM clock 465 MHz in ours, 435 in nvidia-smi's right after), so
# ours is compared with the range nvidia-smi read around it, not with one reading.
NVML_VS_SMI = {
    ":power": ("power.draw", 1e-3, ("rel", 0.10)),
    ":allocated_memory": ("memory.used", 1.0 / 1048576, ("abs", 2)),
    ":total_memory": ("memory.total", 1.0 / 1048576, ("abs", 1)),
    ":temperature": ("temperature.gpu", 1.0, ("abs", 2)),
    ":sm_clock": ("clocks.sm", 1.0, ("rel", 0.05)),
    ":memory_clock": ("clocks.mem", 1.0, ("rel", 0.01)),
}
SMI_FIELDS = [v[0] for v in NVML_VS_SMI.values()]


def parse_smi_line(line):
    """nvidia-smi --query-gpu=<SMI_FIELDS> --format=csv,noheader,nounits: {field: float}."""
    vals = [v.strip() for v in line.strip().split(",")]
    out = {}
    for field, v in zip(SMI_FIELDS, vals):
        try:
            out[field] = float(v)
        except ValueError:
            out[field] = None  # "[N/A]"
    return out


def bracket(got, before, after, kind, tol):
    """Whether got lies between nvidia-smi's two readings, each edge widened by the margin
    (abs: tol in the field's unit; rel: tol times the edge): (ok, low, high)."""
    if got is None or before is None or after is None:
        return False, None, None
    lo, hi = min(before, after), max(before, after)
    lo -= tol if kind == "abs" else tol * abs(lo)
    hi += tol if kind == "abs" else tol * abs(hi)
    return lo <= got <= hi, lo, hi


def nvml_vs_nvidia_smi(nvml_json, smi_lines):
    """Each nvml reading (papi_command_line) inside the bracket of nvidia-smi's readings
    taken just before and just after it (smi_lines: their text, a line each), widened
    by the field's margin."""
    lines = [ln for ln in (smi_lines or "").splitlines() if ln.strip()]
    if len(lines) != 2:
        return {"pass": False, "fields": {}, "detail": "want nvidia-smi's reading before and "
                "after ours (2 lines), got %d" % len(lines)}
    before, after = parse_smi_line(lines[0]), parse_smi_line(lines[1])
    rows, fails = {}, []
    for e in (nvml_json or {}).get("events", []):
        for suffix, (field, factor, (kind, tol)) in NVML_VS_SMI.items():
            if not e["name"].endswith(suffix):
                continue
            got = e["count"] * factor if e.get("added") and "count" in e else None
            b, a = before.get(field), after.get(field)
            ok, lo, hi = bracket(got, b, a, kind, tol)
            rows[field] = {"papi": got, "nvidia_smi_before": b, "nvidia_smi_after": a,
                           "low": lo, "high": hi, "margin": "%s %g" % (kind, tol), "pass": ok}
            if not ok:
                fails.append("%s: papi %s, nvidia-smi %s before and %s after (accepted %s .. %s: "
                             "%s %g beyond them)" % (field, got, b, a,
                                                     None if lo is None else round(lo, 3),
                                                     None if hi is None else round(hi, 3),
                                                     kind, tol))
    missing = [f for f in SMI_FIELDS if f not in rows]
    if missing:
        fails.append("not compared (no nvml event): %s" % missing)
    return {"pass": not fails, "fields": rows,
            "detail": "; ".join(fails) or "every field inside nvidia-smi's bracket"}


def figures(truth, region):
    """What the run measured: FP64 rate, DRAM bandwidth, each region's GPU busy time."""
    sections, out = gpu_sections(region), {}
    fp = truth["regions"].get("fp64", {})
    n, ns = _launches(sections.get("fp64"), "fma64_kernel")
    if ns and fp.get("fmas"):
        out["fp64_gflops"] = round(2.0 * fp["fmas"] / ns, 1)
    dr = truth["regions"].get("dram", {})
    n, ns = _launches(sections.get("dram"), "stream_kernel")
    if ns and dr.get("bytes"):
        out["dram_copy_gbs"] = round(dr["bytes"] / ns, 1)
    out["busy_ns"] = {name: s.get("busy_ns") for name, s in sections.items()}
    return out


def time_verdict(elapsed_s):
    return {"pass": elapsed_s < TIME_LIMIT_S, "seconds": round(elapsed_s, 1),
            "detail": "the whole check in %.1f s (limit %g)" % (elapsed_s, TIME_LIMIT_S)}


def all_verdicts(truth, region, run_gpu, dmon_text, nvml_json, smi_lines, elapsed_s):
    v = {"kernel_count": kernel_count(truth, region, run_gpu),
         "durations": durations(truth, region),
         "bytes": copy_bytes(truth, region),
         "kernels_in_regions": kernels_in_regions(truth, region),
         "gpm_vs_dmon": gpm_vs_dmon(truth, region, dmon_text),
         "nvml_vs_nvidia_smi": nvml_vs_nvidia_smi(nvml_json, smi_lines),
         "time": time_verdict(elapsed_s)}
    return {"pass": all(x["pass"] for x in v.values()), "verdicts": v,
            "figures": figures(truth, region)}

