"""The one profile.folded (or profile.EVENT.folded) under a papi_run output folder, read
as {stack: weight} by the Python checkers (tests/run, tests/report):
    stacks = folded_file.stacks(out)            # ValueError: not exactly one such file
    stacks = folded_file.stacks(out, on_error=fail)   # or the checker's own fail(msg)
Each line is "root;..;leaf COUNT" (src-c/sampling/folded.c writes it); a stack seen on
two lines adds up."""
import glob
import os


def raise_value_error(msg):
    raise ValueError(msg)


def stacks(out, name="profile.folded", on_error=raise_value_error):
    files = glob.glob(os.path.join(out, "**", name), recursive=True)
    if len(files) != 1:
        return on_error("%d files %s under %s" % (len(files), name, out))
    found = {}
    with open(files[0]) as f:
        for line in f:
            stack, count = line.rstrip("\n").rsplit(" ", 1)
            found[stack] = found.get(stack, 0) + int(count)
    return found
