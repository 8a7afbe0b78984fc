"""The CUPTI double's record files (tests/gpu_activity/cupti_double.c says their lines)
changed for a test: a second run whose kernels are slower, for papi_report --compare."""
import os


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
