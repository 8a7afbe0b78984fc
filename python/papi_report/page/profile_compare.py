"""papi_report.page.profile_compare: --compare of two profiled runs (papi_run --sample) by
function: compare.py adds these rows (scope "function") to its own.

Per function and event of the profiles: its self weight (the sampled event's, and each -e
event's, summed over the run's processes, ranks and threads) on each side, the mean over
a side's repeated runs, its share of the side's total, the ratio B/A and compare's
verdict. The noise of a side is the sampling noise of the function's sample count n of
the side's N samples, a binomial spread: cv = sqrt((1 - n/N) / n); with repeated runs the
larger of that and the spread of the per-run weights (their cv). A function sampled on
one side only is "only in A" or "only in B" (absent on the other, never 0).

Per function and -m metric of the profiles (papi_run -m): the metric of the function's own
counts summed over the run's processes, ranks and threads (a ratio of sums, as
profile_functions has it), the mean over a side's runs that give it a value; no share. Its
noise is the function's sampling noise as above (its samples are all the metric is formed
from), with repeated runs the larger of that and the spread of the per-run values. The
row's "event" is the metric's name, "unit" its unit, "kind" says "metric" ("event" for
the weights).

--fail-if 'function:NAME>1.1' holds when NAME's sampled-event weight B/A is above 1.1
('function:NAME@EVENT>1.1' for an -e event, 'function:NAME@METRIC>1.1' for an -m metric;
<, >=, <= too). The generic conditions
('time>1.1') leave function rows alone: a rarely sampled function's ratio is mostly noise."""
import math
import os
import re

import pandas as pd

from ..load import profile, profile_metrics

SECONDS = {"perf::TASK-CLOCK", "perf::CPU-CLOCK"}  # weights in ns, shown in s
COLUMNS = ["function", "kind", "event", "unit", "share_a_pct", "share_b_pct", "a", "b", "samples_a",
           "samples_b", "ratio", "noise_a", "noise_b", "threshold", "verdict"]
CONDITION = re.compile(r"^\s*function:(.+?)(?:@([^@<>=]+?))?\s*(<=|>=|<|>)\s*([0-9.eE+-]+)\s*$")


def has_profiles(path):
    """Does path hold papi_run --sample profiles (a directory of them counts as a run)?"""
    return bool(profile.find([path]))


def _run(path):
    """(events, {function: [self weight per event]}, {function: samples}, samples, [total
    per event], metrics) of the newest profiled run under path; None without profiles."""
    job = profile.load(profile.find([path]))
    if not job:
        return None
    events = job["events"]
    own, samples = {}, {}
    for e in job["thread_functions"]:
        fn = e["function"].split(";")[-1]  # the innermost, as folded's leaf
        w = own.setdefault(fn, [0] * len(events))
        for i, c in enumerate(e["counts"]):
            w[i] += c
        samples[fn] = samples.get(fn, 0) + e["samples"]
    totals = [sum(w[i] for w in own.values()) for i in range(len(events))]
    return events, own, samples, sum(samples.values()), totals, job["metrics"]


def _side(paths):
    """{(function, event or metric): (mean, mean share % or None, samples, cv)} over the
    runs; events; {metric: unit} (the first run's metrics)."""
    runs = [r for r in (_run(p) for p in paths) if r is not None]
    if not runs:
        return None, [], {}
    events = runs[0][0]
    runs = [r for r in runs if r[0] == events]
    metrics = runs[0][5]
    out = {}
    for fn in sorted({f for r in runs for f in r[1]}):
        n = sum(r[2].get(fn, 0) for r in runs)
        total_n = sum(r[3] for r in runs)
        p = n / total_n if total_n else 0.0
        binomial = math.sqrt((1 - p) / n) if n else 0.0
        for i, ev in enumerate(events):
            per_run = [r[1].get(fn, [0] * len(events))[i] for r in runs]
            shares = [100.0 * w / r[4][i] if r[4][i] else 0.0 for w, r in zip(per_run, runs)]
            mean = sum(per_run) / len(per_run)
            cv = binomial
            if len(runs) > 1 and mean:
                sd = math.sqrt(sum((w - mean) ** 2 for w in per_run) / (len(per_run) - 1))
                cv = max(cv, sd / mean)
            out[(fn, ev)] = (mean, sum(shares) / len(shares), n, cv)
        for m in metrics:
            values = [profile_metrics.evaluate(m, r[1][fn]) for r in runs if fn in r[1]]
            values = [v for v in values if v is not None]
            if not values:
                continue
            mean = sum(values) / len(values)
            cv = binomial
            if len(values) > 1 and mean:
                sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
                cv = max(cv, sd / abs(mean))
            out[(fn, m["name"])] = (mean, None, n, cv)
    return out, events, {m["name"]: m.get("unit", "") for m in metrics}


def table(a_paths, b_paths, tolerance, verdict):
    """A DataFrame of COLUMNS, one row per function and event either side sampled; empty
    unless both sides hold profiles. verdict: compare.verdict."""
    sa, ea, ma_units = _side(a_paths)
    sb, eb, mb_units = _side(b_paths)
    rows = []
    if sa is not None and sb is not None:
        units = dict(mb_units, **ma_units)
        metrics = list(ma_units) + [m for m in mb_units if m not in ma_units]
        events = ea + [e for e in eb if e not in ea] + [m for m in metrics if m not in ea + eb]
        keys = set(sa) | set(sb)
        order = sorted({fn for fn, _ in keys}, key=lambda fn: (
            -max(sa.get((fn, events[0]), (0, 0))[1], sb.get((fn, events[0]), (0, 0))[1]), fn))
        for fn in order:
            for ev in events:
                if (fn, ev) not in keys:
                    continue
                a, b = sa.get((fn, ev)), sb.get((fn, ev))
                kind = "metric" if ev in units and ev not in ea + eb else "event"
                scale = 1e-9 if ev in SECONDS and kind == "event" else 1.0
                ma = a[0] * scale if a else None
                mb = b[0] * scale if b else None
                ratio, thr, v = verdict(ev, ma, mb, a[3] if a else 0.0, b[3] if b else 0.0, tolerance)
                unit = units.get(ev, "") if kind == "metric" else "s" if ev in SECONDS else ""
                rows.append([fn, kind, ev, unit, a[1] if a else None,
                             b[1] if b else None, ma, mb, a[2] if a else 0, b[2] if b else 0,
                             ratio, a[3] if a else 0.0, b[3] if b else 0.0, thr, v])
    df = pd.DataFrame(rows, columns=COLUMNS)
    df.attrs["sampled"] = (ea or eb or [None])[0]
    return df


def rows(df, runs_a, runs_b):
    """table()'s rows as compare's (scope "function", entity the function, quantity the event)."""
    return [{"scope": "function", "entity": r["function"], "quantity": r["event"],
             "unit": r["unit"], "a": r["a"], "b": r["b"], "ratio": r["ratio"],
             "noise_a": r["noise_a"], "noise_b": r["noise_b"], "units_a": r["samples_a"],
             "units_b": r["samples_b"], "runs_a": runs_a, "runs_b": runs_b,
             "threshold": r["threshold"], "verdict": r["verdict"]} for _, r in df.iterrows()]


def is_condition(text):
    return text.strip().startswith("function:")


def parse_condition(text):
    """(function, event or None, op, number) of 'function:NAME[@EVENT]>X'; ValueError."""
    m = CONDITION.match(text)
    if not m:
        raise ValueError("--fail-if %r: expected function:NAME>NUMBER (or <, >=, <=; "
                         "function:NAME@EVENT>NUMBER for an event read with -e, "
                         "function:NAME@METRIC>NUMBER for an -m metric)" % text)
    fn, ev, op, num = m.groups()
    try:
        x = float(num)
    except ValueError:
        raise ValueError("--fail-if %r: %r is not a number" % (text, num))
    return fn.strip(), ev.strip() if ev else None, op, x


def failed(df, text, sampled):
    """[(text, row)] of compare's function rows meeting a function: condition. sampled:
    the sampled event (a condition without @EVENT is about it)."""
    fn, ev, op, x = parse_condition(text)
    ev = ev or sampled
    ops = {">": x.__lt__, ">=": x.__le__, "<": x.__gt__, "<=": x.__ge__}
    return [(text, r) for _, r in df.iterrows()
            if r["scope"] == "function" and r["entity"] == fn and r["quantity"] == ev and
            isinstance(r["ratio"], float) and not math.isnan(r["ratio"]) and ops[op](r["ratio"])]


def _cell(v, fmt):
    return "absent" if v is None or (isinstance(v, float) and math.isnan(v)) else fmt % v


def render_text(df):
    """The functions' section of compare.txt ("" without profiles on both sides); a metric's
    share is "-" (it has none)."""
    if df is None or df.empty:
        return ""
    head = "%-40s  %-18s  %8s  %8s  %12s  %12s  %7s  %7s  %s" % (
        "function", "event", "share A", "share B", "A", "B", "B/A", "noise", "verdict")
    lines = ["", "Functions of the sampled profiles (self weight of each event, each -m metric of the "
             "function's own counts; share = of the side's total; "
             "noise = binomial spread of the function's sample count sqrt((1-p)/n), with "
             "repeated runs the larger of that and their spread)", head, "-" * len(head)]
    for _, r in df.iterrows():
        unit = " s" if r["unit"] == "s" else ""
        lines.append("%-40s  %-18s  %8s  %8s  %12s  %12s  %7s  %6.1f%%  %s" % (
            r["function"][:40], r["event"][:18],
            "-" if r["kind"] == "metric" else _cell(r["share_a_pct"], "%.2f%%"),
            "-" if r["kind"] == "metric" else _cell(r["share_b_pct"], "%.2f%%"), _cell(r["a"], "%.4g" + unit),
            _cell(r["b"], "%.4g" + unit), _cell(r["ratio"], "%.3f"),
            100 * math.sqrt(r["noise_a"] ** 2 + r["noise_b"] ** 2), r["verdict"]))
    return "\n".join(lines) + "\n"


def write_csv(df, out_dir):
    """compare_functions.csv in out_dir ([] without function rows)."""
    if df is None or df.empty:
        return []
    path = os.path.join(out_dir, "compare_functions.csv")
    # a ratio over an A of 0 is infinite: empty, as compare.csv writes it
    df.replace([float("inf"), float("-inf")], float("nan")).to_csv(path + ".tmp", index=False)
    os.replace(path + ".tmp", path)
    return [path]
