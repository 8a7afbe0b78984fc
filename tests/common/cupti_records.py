"""The CUPTI double's record files (tests/gpu_activity/cupti_double.c says their lines)
changed for a test: a second run whose kernels are slower, for papi_report --compare;
and the GPU tracks a trace must show for launches of one (trace_gpu_tracks.h)."""
import collections
import os

DEMANGLED = {"_Z6squarePfi": "square(float*, int)"}  # the files' mangled names
COPY = {1: "HtoD", 2: "DtoH"}  # CUPTI's copy kinds the files use


def slower(src, dst, factor):
    """src's records with every kernel factor times as long (its start kept) into dst;
    src and dst a file each, or a folder each (its *.txt files)."""
    if os.path.isdir(src):
        os.makedirs(dst, exist_ok=True)
        for name in sorted(os.listdir(src)):
            if name.endswith(".txt"):
                slower(os.path.join(src, name), os.path.join(dst, name), factor)
        return
    with open(src) as f, open(dst, "w") as out:
        for line in f:
            w = line.split()
            if w and w[0] == "kernel":
                w[4] = str(int(w[3]) + factor * (int(w[4]) - int(w[3])))
                line = " ".join(w) + "\n"
            out.write(line)


def staged(path):
    """{track: [(name, start, end)]} of one launch of the records file, times after its base."""
    tracks = collections.defaultdict(list)
    for line in open(path):
        w = line.split()
        if not w or w[0].startswith("#"):
            continue
        if w[0] == "kernel":
            tracks["GPU %s stream %s" % (w[1], w[2])].append(
                (DEMANGLED.get(w[5], w[5]), int(w[3]), int(w[4])))
        elif w[0] == "memcpy":
            tracks["GPU %s stream %s" % (w[2], w[3])].append(
                ("memcpy " + COPY[int(w[1])], int(w[5]), int(w[6])))
        elif w[0] == "memset":
            tracks["GPU %s stream %s" % (w[1], w[2])].append(("memset", int(w[4]), int(w[5])))
    return tracks


def expected(path, bases):
    """{track: [(name, start, end)]} of launches of the records file at bases (ns on the
    traces' clock), in time order per track, an operation starting before the previous
    one ends cut there."""
    one = staged(path)
    out = {}
    for track, ops in one.items():
        ops = sorted(((n, b + s, b + e) for b in bases for n, s, e in ops),
                     key=lambda o: (o[1], o[2]))
        for i in range(1, len(ops)):
            if ops[i][1] < ops[i - 1][2]:
                ops[i] = (ops[i][0], min(ops[i - 1][2], ops[i][2]), ops[i][2])
        out[track] = ops
    return out
