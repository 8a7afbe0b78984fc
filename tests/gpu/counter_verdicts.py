"""counter_verdicts.py: the prepared check's verdicts on the GPU's own hardware counters
(issue 71 item 5), from what gpu_counters.cu wrote (its cases: each event's expected and
counted value, PAPI's words where a call failed), the cuda component's listing times, and
Nsight Compute's values for the same kernels where the image has `ncu`. Pure functions;
test_gpu_verdicts.py runs them on recorded inputs."""
import csv
import io

DRAM_TOLERANCE = 0.02  # dram__bytes_read.sum of a 1 GiB read
NCU_TOLERANCE = 0.01  # ours beside ncu's for the same kernel
LISTING_LIMIT_S = 2.0  # a device's metric list, the first time (no cache)

# case -> (event name's start, how it is judged: exact, or the relative tolerance)
CASES = {"fma": ("cuda:::sm__sass_thread_inst_executed_op_dfma_pred_on.sum", 0.0),
         "stream": ("cuda:::dram__bytes_read.sum", DRAM_TOLERANCE),
         "launch": ("cuda:::launch__", 0.0)}


def case_verdict(counted, name):
    """A case of gpu_counters' file: every event's count equal to (or within the case's
    tolerance of) its expected value; fails naming PAPI's error where the case did not run."""
    c = (counted or {}).get(name)
    if c is None:
        return {"pass": False, "detail": "%s: not in gpu_counters' file" % name}
    if c.get("ret") != 0:
        return {"pass": False, "detail": "%s: not counted (%s, PAPI error %s)" % (
            name, c.get("error") or "?", c.get("ret"))}
    tol, parts, ok = CASES[name][1], [], True
    for ev, v in sorted(c["events"].items()):
        want, got = v["expected"], v["counted"]
        good = got == want if tol == 0 else want > 0 and abs(got - want) <= tol * want
        ok = ok and good
        parts.append("%s %d, %s %d%s" % (ev, got, "want" if tol == 0 else "staged", want,
                                         "" if tol == 0 else " (+- %g %%)" % (100 * tol)))
    return {"pass": ok, "detail": "; ".join(parts), "events": c["events"]}


def listing_verdict(first_s, second_s, first_n, second_n):
    """The cuda component's metric list: the first listing (no cache) under the limit, and
    the second (from the cache) the same events."""
    ok = first_s is not None and first_s < LISTING_LIMIT_S and first_n > 0 and first_n == second_n
    return {"pass": ok, "first_s": first_s, "second_s": second_s, "events": first_n,
            "detail": "%s events listed in %s s (limit %g; again from the cache: %s events in %s s)"
                      % (first_n, first_s, LISTING_LIMIT_S, second_n, second_s)}


def parse_ncu_csv(text):
    """{(kernel name's start, metric): value} from `ncu --csv --metrics ...` (one row per
    kernel launch and metric; the numbers may carry thousands separators)."""
    out = {}
    lines = [ln for ln in text.splitlines() if ln.startswith('"')]
    for row in csv.DictReader(io.StringIO("\n".join(lines))):
        kernel, metric = row.get("Kernel Name", ""), row.get("Metric Name", "")
        try:
            value = float(row.get("Metric Value", "").replace(",", ""))
        except ValueError:
            continue
        out[(kernel.split("(")[0], metric)] = value
    return out


# our case's event -> the kernel ncu saw it in
NCU_KERNELS = {"fma": "fma64_kernel", "stream": "read_kernel", "launch": "launch_kernel"}


def ncu_verdict(counted, ncu):
    """Ours beside Nsight Compute's for each event of each case, within 1 %; None where the
    image has no ncu (a fact, not a verdict)."""
    if ncu is None:
        return None
    parts, ok = [], True
    for name, kernel in NCU_KERNELS.items():
        for ev, v in ((counted or {}).get(name) or {}).get("events", {}).items():
            metric = ev.split(":::", 1)[1].split(":device=")[0]
            theirs = [x for (k, m), x in ncu.items() if k == kernel and m == metric]
            if not theirs:
                ok = False
                parts.append("%s: ncu has no %s for %s" % (name, metric, kernel))
                continue
            t = theirs[-1]  # read_kernel runs twice (the L2 flush first): the last is ours
            good = abs(v["counted"] - t) <= NCU_TOLERANCE * max(abs(t), 1)
            ok = ok and good
            parts.append("%s %s: ours %d, ncu %.0f" % (name, metric, v["counted"], t))
    return {"pass": ok, "detail": "; ".join(parts)}


def launch_cost_verdict(counted):
    """What counting adds per kernel launch (gpu_counters' launch_cost, issue 71 item 4): a
    figure with no threshold yet (no GPU has run it), so it passes when it was measured (the
    three medians, the set counting and read) and fails naming PAPI's words where not."""
    c = (counted or {}).get("launch_cost")
    if c is None:
        return {"pass": False, "detail": "launch_cost: not in gpu_counters' file"}
    if c.get("ret") != 0:
        return {"pass": False, "detail": "launch_cost: not measured (%s, PAPI error %s)" % (
            c.get("error") or "?", c.get("ret"))}
    alone, counting, reading = (c.get(k, -1) for k in ("alone_ns", "counting_ns", "reading_ns"))
    if min(alone, counting, reading) <= 0:
        return {"pass": False, "detail": "launch_cost: a median is missing: %s" % c}
    every = c.get("every", 0)
    out = {"alone_ns": alone, "added_counting_ns": round(counting - alone, 1),
           "added_reading_ns": round(reading - alone, 1),
           "read_us": round((reading - counting) * every / 1000.0, 1)}
    out["pass"] = True
    out["detail"] = ("%s empty-kernel launches: %.0f ns each alone; %s counting adds %+.0f ns "
                     "(%+.1f %%); with a PAPI_read every %d launches %+.0f ns a launch (a read "
                     "%.1f us)" % (c.get("launches"), alone, c.get("event", "a cuda set"),
                                   out["added_counting_ns"], 100.0 * (counting - alone) / alone,
                                   every, out["added_reading_ns"], out["read_us"]))
    return out


# papi_run --gpu-counters PER_KERNEL_METRICS over `gpu_counters --plain` (issue 71 item 5:
# the per-kernel mode's rows): each kernel's launches and grid and block sizes summed over
# them, known from gpu_counters.cu (FMA_BLOCKS 528 of FMA_THREADS 256; read_kernel twice,
# the L2 flush and the stream, 1024 x 256 each; launch_kernel 123 x 96).
PER_KERNEL_METRICS = ("launch__grid_size", "launch__block_size")
PLAIN_KERNELS = {"fma64_kernel": (1, 528, 256), "read_kernel": (2, 2048, 512),
                 "launch_kernel": (1, 123, 96)}


def per_kernel_verdict(run_file):
    """papi_run --gpu-counters' file (gpu_activity_*.json) of `gpu_counters --plain`: device
    0 counted, nothing dropped, one row per kernel of the program, its launches and each
    metric's sum exact, no other kernel."""
    kc = (run_file or {}).get("kernel_counters")
    if not kc:
        return {"pass": False, "detail": "papi_run --gpu-counters wrote no kernel_counters"}
    parts, ok, seen = [], kc.get("devices") == [0] and kc.get("dropped_launches") == 0, set()
    if not ok:
        parts.append("devices %s, dropped %s (want [0], 0)" % (kc.get("devices"),
                                                              kc.get("dropped_launches")))
    for row in kc.get("kernels", []):
        base = next((k for k in PLAIN_KERNELS if k in row.get("kernel", "")), None)
        if base is None or base in seen:
            ok = False
            parts.append("a row not of the program's kernels, or twice: %s" % row.get("kernel"))
            continue
        seen.add(base)
        launches, grid, block = PLAIN_KERNELS[base]
        sums = row.get("sums", {})
        got = (row.get("launches"), sums.get(PER_KERNEL_METRICS[0]), sums.get(PER_KERNEL_METRICS[1]))
        ok = ok and got == (launches, grid, block)
        parts.append("%s: %s launches, grid %s, block %s (want %d, %d, %d)"
                     % ((base,) + got + (launches, grid, block)))
    if seen != set(PLAIN_KERNELS):
        ok = False
        parts.append("no row of %s" % ", ".join(sorted(set(PLAIN_KERNELS) - seen)))
    return {"pass": ok, "detail": "; ".join(parts)}


def all_counter_verdicts(counted, listing, ncu_text):
    """The verdicts of this part of the check: the cases, the listing, what counting costs
    per launch, ncu's where present."""
    v = {"cuda_" + n: case_verdict(counted, n) for n in CASES}
    v["cuda_launch_cost"] = launch_cost_verdict(counted)
    v["cuda_listing"] = listing_verdict(*listing)
    n = ncu_verdict(counted, parse_ncu_csv(ncu_text) if ncu_text is not None else None)
    if n is not None:
        v["cuda_vs_ncu"] = n
    return v
