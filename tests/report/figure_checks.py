"""figure_checks.py: what a reader would find wrong in one of papi_report's figures,
inspected on the matplotlib Figure object figures.py returns: a legend over the plot, a
rank axis ticked between ranks or counting blocks of ranks instead of ranks, a colour bar
with an offset or a shared multiplier, a bytes colour bar not in one binary unit, a bar or
a bar's label cut at the frame."""
import re

UNIT = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}


def bytes_colorbar_problem(a, round_ticks=False):
    """What is wrong with a colour bar of bytes (drawn), or None: every tick labelled in
    one binary unit with its own value (no offset, no multiplier), the labels distinct and
    equal to the tick's value; round_ticks: ticks on round numbers of the unit (at most 2
    decimals: 0.5 KiB, not 3.906 KiB)."""
    labels = [t.get_text() for t in a.get_yticklabels()]
    locs = list(a.yaxis.get_ticklocs())
    lo, hi = sorted(a.get_ylim())
    shown = [(v, l) for v, l in zip(locs, labels) if lo - 1e-9 * abs(hi) <= v <= hi + 1e-9 * abs(hi)]
    if a.yaxis.get_offset_text().get_text():
        return "has an offset %r" % a.yaxis.get_offset_text().get_text()
    if len(shown) < 2:
        return "has %d ticks within its range: %s" % (len(shown), labels)
    parsed = [re.match(r"^(\d+(?:\.\d+)?) (B|KiB|MiB|GiB|TiB)$", l) for _v, l in shown]
    if not all(parsed):
        return "labels %s are not numbers in binary units" % [l for _v, l in shown]
    units = {m.group(2) for m in parsed}
    if len(units) != 1:
        return "mixes units: %s" % [l for _v, l in shown]
    if len({l for _v, l in shown}) != len(shown):
        return "repeats a label: %s" % [l for _v, l in shown]
    f = UNIT[units.pop()]
    for (v, l), m in zip(shown, parsed):
        if abs(float(m.group(1)) * f - v) > max(1e-6 * abs(v), 0.5):
            return "labels %s at %s" % (l, v)
        if round_ticks and abs(v / f * 100 - round(v / f * 100)) > 1e-6:
            return "ticks at %s, not round numbers of the unit (%s)" % (l, [x for _v, x in shown])
    return None


RANK_AXIS = re.compile(r"(destination |source )?rank\b(?!/)")  # not "rank/thread"


def _number(text):
    """A tick label's number ("−10" uses the minus sign), or None."""
    try:
        return float(text.replace("\u2212", "-"))
    except ValueError:
        return None


def figure_problems(fid, fig, round_bytes=True):
    """[what is wrong] with figure fid (drawn here)."""
    out = []
    fig.canvas.draw()
    for a in fig.axes:
        leg = a.get_legend()
        if leg is not None:
            lb, ab = leg.get_window_extent(), a.get_window_extent()
            inside = lb.x0 < ab.x1 - 1 and lb.x1 > ab.x0 + 1 and lb.y0 < ab.y1 - 1 and lb.y1 > ab.y0 + 1
            if inside:
                out.append("%s: a legend covers the plot (%s in %s)" % (fid, lb, ab))
        if a.get_label() == "<colorbar>":
            off = a.yaxis.get_offset_text().get_text()
            if off:
                out.append("%s: the colour bar has an offset or multiplier %r" % (fid, off))
            if a.get_ylabel() == "bytes sent":
                why = bytes_colorbar_problem(a, round_ticks=round_bytes)
                if why:
                    out.append("%s: the bytes colour bar %s" % (fid, why))
            continue
        for axis, label, lim in ((a.xaxis, a.get_xlabel(), a.get_xlim()),
                                 (a.yaxis, a.get_ylabel(), a.get_ylim())):
            if not RANK_AXIS.match(label):
                continue
            if re.match(r"(destination |source )?rank block", label):
                out.append("%s: the axis %r counts blocks of ranks, not ranks" % (fid, label))
            lo, hi = min(lim), max(lim)
            shown = [(x, t.get_text()) for x, t in zip(axis.get_ticklocs(), axis.get_ticklabels())
                     if lo <= x <= hi]
            if not all(float(x).is_integer() for x, _t in shown):
                out.append("%s: rank axis %r ticks %s are not whole numbers" % (fid, label, [x for x, _ in shown]))
            nums = [_number(t) for _x, t in shown if t]
            if not all(n is not None and n.is_integer() and n >= 0 for n in nums):
                out.append("%s: rank axis %r labels %s are not ranks" % (fid, label, [t for _, t in shown]))
            m = re.search(r"blocks of (\d+)", label)
            if m and not all(n is not None and n % int(m.group(1)) == 0 for n in nums):
                out.append("%s: rank axis %r labels %s are not the blocks' first ranks"
                           % (fid, label, [t for _, t in shown]))
    return out


def bar_problems(fid, fig, axis="y", pad=0.01):
    """[what is wrong] with the bars of figure fid: along the value axis (axis "y" for
    bars, "x" for barh) every bar within the limits with pad of the axis' length to spare
    at an end that is not a baseline (a bar touching the frame reads as cut), and every
    text (a bar's label) inside the axes."""
    out = []
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for a in fig.axes:
        if a.get_label() == "<colorbar>" or not a.patches:
            continue
        lo, hi = sorted(a.get_ylim() if axis == "y" else a.get_xlim())
        room = pad * (hi - lo)
        for p in a.patches:
            v0, v1 = sorted((p.get_y(), p.get_y() + p.get_height()) if axis == "y"
                            else (p.get_x(), p.get_x() + p.get_width()))
            if v0 < lo - 1e-9 or v1 > hi + 1e-9 or (v1 > 0 and v1 > hi - room) or \
                    (v0 < 0 and v0 < lo + room):
                out.append("%s: a bar %g..%g is cut or touches the frame (limits %g..%g)"
                           % (fid, v0, v1, lo, hi))
        ab = a.get_window_extent(renderer)
        for t in a.texts:
            if not t.get_text().strip():
                continue
            e = t.get_window_extent(renderer)
            if e.x0 < ab.x0 - 0.5 or e.x1 > ab.x1 + 0.5 or e.y0 < ab.y0 - 0.5 or e.y1 > ab.y1 + 0.5:
                out.append("%s: the label %r lies outside the axes (%s in %s)" % (fid, t.get_text(), e, ab))
    return out
