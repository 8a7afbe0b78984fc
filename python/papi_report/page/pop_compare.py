"""papi_report.page.pop_compare: POP's computation scalability between two MPI runs (issue 49
item 2), for `papi_report --compare A B` with A the reference (e.g. fewer ranks):

  computation scalability = useful computation time of A / that of B, summed over ranks
                          = instruction scalability x IPC scalability x frequency scalability
  instruction scalability = instructions of A / instructions of B (summed over ranks)
  IPC scalability         = IPC of B / IPC of A          (IPC = instructions / cycles)
  frequency scalability   = frequency of B / that of A   (cycles per useful second)
  global efficiency       = parallel efficiency x computation scalability

The three factors multiply to the computation scalability exactly, whatever the counts
cover: the wrapper counts a rank's whole life (its MPI calls too), so "frequency" is the
rank's cycles per second of useful time. Useful time is the wait states' (wait_states.pop,
useful_mean_s x ranks) when both runs have it, else wall minus MPI time on both; parallel
efficiency is the wait states'. Instructions are PAPI_TOT_INS or the perf name
(perf::INSTRUCTIONS ...), cycles PAPI_TOT_CYC or perf::CPU-CYCLES ...: one absent from a
run, or not read on one of its ranks, is said, never taken as 0. Repeated runs of a side:
the mean of the runs' values. Needs pandas only."""
import math

import pandas as pd

from ..load import pop_factors


INSTRUCTIONS = ("PAPI_TOT_INS", "perf::INSTRUCTIONS", "perf::instructions", "INSTRUCTIONS",
                "instructions", "INST_RETIRED:ANY_P", "INST_RETIRED.ANY_P", "INST_RETIRED")
CYCLES = ("PAPI_TOT_CYC", "perf::CPU-CYCLES", "perf::CYCLES", "perf::cpu-cycles", "perf::cycles",
          "CPU-CYCLES", "CYCLES", "cycles", "CPU_CYCLES", "CPU_CLK_UNHALTED")
COLUMNS = ["quantity", "a", "b", "factor", "value", "note"]


def _counter(rep, names):
    """(name, sum over ranks) of the first of names every rank counted; (None, why) else."""
    ranks = rep.get("ranks", [])
    why = "not counted (%s)" % " or ".join(names[:2])
    for n in names:
        have = [r for r in ranks if n in (r.get("counters") or {})]
        if not have:
            continue
        missing = [r["rank"] for r in ranks if (r.get("counters") or {}).get(n) is None]
        if missing:
            why = "%s not read on rank %d%s" % (n, missing[0], " and %d more" % (len(missing) - 1)
                                                if len(missing) > 1 else "")
            continue
        return n, float(sum(r["counters"][n] for r in ranks))
    return None, why


def _float(x):
    return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else None


def run_values(rep):
    """What one run gives: ranks, useful time (both kinds), parallel efficiency, counts."""
    w = rep.get("wait_states") if isinstance(rep.get("wait_states"), dict) else {}
    pop = w.get("pop") if w.get("on") else None
    ranks = rep.get("ranks", [])
    v = {"ranks": len(ranks),
         "useful_outside_mpi_s": sum(float(r.get("wall_s", 0.0)) - float(r.get("mpi_s", 0.0))
                                     for r in ranks),
         "useful_pop_s": float(pop["useful_mean_s"]) * pop["ranks"]
         if pop and _float(pop.get("useful_mean_s")) is not None else None,
         "parallel_efficiency": _float(pop.get("parallel_efficiency")) if pop else None}
    v["ins_name"], v["ins"] = _counter(rep, INSTRUCTIONS)
    v["cyc_name"], v["cyc"] = _counter(rep, CYCLES)
    return v


def _mean(values):
    return sum(values) / len(values) if values else None


def side(reports):
    """One side's values: the mean over its runs of each (None when a run lacks it; for
    a count, the first run's reason)."""
    runs = [run_values(r) for r in reports]
    out = {"runs": len(runs), "ranks": _mean([float(r["ranks"]) for r in runs])}
    for k in ("useful_outside_mpi_s", "useful_pop_s", "parallel_efficiency"):
        out[k] = _mean([r[k] for r in runs if r[k] is not None]) if all(
            r[k] is not None for r in runs) else None
    for k in ("ins", "cyc"):
        ok = all(isinstance(r[k], float) for r in runs)
        out[k] = _mean([r[k] for r in runs]) if ok else None
        out[k + "_name"] = runs[0][k + "_name"] if ok else None
        out[k + "_why"] = None if ok else next(r[k] for r in runs if not isinstance(r[k], float))
    return out


def _ratio(x, y):
    return x / y if x is not None and y is not None and y > 0 else None


def scalability(a_reports, b_reports):
    """A DataFrame of COLUMNS: the useful time, counts, IPC, frequency, parallel and global
    efficiency of A and B, each factor B against A. Empty when a side has no MPI report."""
    if not a_reports or not b_reports:
        return pd.DataFrame(columns=COLUMNS)
    a, b = side(a_reports), side(b_reports)
    pop = a["useful_pop_s"] is not None and b["useful_pop_s"] is not None
    key = "useful_pop_s" if pop else "useful_outside_mpi_s"
    ua, ub = a[key], b[key]
    comp = pop_factors.scalability(ua, ub)
    rows = [("ranks", a["ranks"], b["ranks"], None, None, ""),
            ("useful computation time, s (summed over ranks)", ua, ub, "computation scalability",
             comp, "the wait states' useful time" if pop else "wall minus MPI time (no wait states "
             "in %s)" % ("A" if a["useful_pop_s"] is None else "B"))]
    def absent(*counts):
        return "; ".join("%s: %s" % (s, v[k + "_why"]) for k in counts
                         for s, v in (("A", a), ("B", b)) if v[k] is None)
    ipc_a, ipc_b = _ratio(a["ins"], a["cyc"]), _ratio(b["ins"], b["cyc"])
    fa, fb = _ratio(a["cyc"], ua), _ratio(b["cyc"], ub)
    rows += [("instructions (%s)" % (a["ins_name"] or b["ins_name"] or "PAPI_TOT_INS"), a["ins"], b["ins"],
              "instruction scalability", pop_factors.scalability(a["ins"], b["ins"]),
              absent("ins")),
             ("IPC (instructions / cycles)", ipc_a, ipc_b, "IPC scalability",
              pop_factors.scalability(ipc_b, ipc_a),
              absent("ins", "cyc")),
             ("frequency, GHz (cycles per useful second)", fa / 1e9 if fa else None,
              fb / 1e9 if fb else None, "frequency scalability", pop_factors.scalability(fb, fa),
              "counted over the whole rank, MPI too" if fa and fb else absent("cyc")),
             ("parallel efficiency", a["parallel_efficiency"], b["parallel_efficiency"], None, None,
              "" if a["parallel_efficiency"] is not None and b["parallel_efficiency"] is not None
              else "no wait states in a run (PAPI_MPI_WAITS=0 or an older wrapper)")]
    ge_a = a["parallel_efficiency"]
    ge_b = pop_factors.global_efficiency(b["parallel_efficiency"], comp)
    rows.append(("global efficiency (parallel efficiency x computation scalability)", ge_a, ge_b,
                 "global efficiency of B", ge_b, "A is the reference: its computation scalability is 1"))
    df = pd.DataFrame(rows, columns=COLUMNS)
    for c in ("a", "b", "value"):
        df[c] = pd.to_numeric(df[c])
    return df


def _num(v):
    return "-" if v is None or (isinstance(v, float) and math.isnan(v)) else "%.4g" % v


def shown(df):
    """The table as the page shows it: numbers as the text prints them (ranks whole, "-"
    where absent), no factor written "None"."""
    return pd.DataFrame({"quantity": df["quantity"], "A": [_num(v) for v in df["a"]],
                         "B": [_num(v) for v in df["b"]], "factor": [f or "" for f in df["factor"]],
                         "value": [_num(v) for v in df["value"]], "note": df["note"]})


def render_text(df):
    """The scalability table and a sentence, or "" when there is none."""
    if df is None or df.empty:
        return ""
    lines = ["POP computation scalability (A the reference; B's factors against A's)",
             "%-66s  %12s  %12s  %-25s  %8s  %s" % ("quantity", "A", "B", "factor", "value", "note")]
    for r in df.itertuples():
        lines.append("%-66s  %12s  %12s  %-25s  %8s  %s" % (
            r.quantity, _num(r.a), _num(r.b), r.factor or "", _num(r.value), r.note))
    v = dict(zip(df["factor"], df["value"]))
    comp = v.get("computation scalability")
    if comp is not None and not math.isnan(comp):
        parts = [("instruction", v.get("instruction scalability")), ("IPC", v.get("IPC scalability")),
                 ("frequency", v.get("frequency scalability"))]
        split = " x ".join("%s %s" % (n, _num(x)) for n, x in parts) if all(
            x is not None and not math.isnan(x) for _, x in parts) else "its split needs instructions " \
            "and cycles in both runs"
        lines.append("computation scalability %s = %s" % (_num(comp), split))
        ge = v.get("global efficiency of B")
        if ge is not None and not math.isnan(ge):
            lines.append("global efficiency of B %s = parallel efficiency %s x computation "
                         "scalability %s" % (_num(ge), _num(df["b"][df["quantity"] == "parallel efficiency"]
                                                            .iloc[0]), _num(comp)))
    return "\n".join(lines + ["", ""])
