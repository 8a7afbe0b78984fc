#!/usr/bin/env python3
"""check_kernels_qemu.py QEMU VK_RUN: papi_validate's arm64 kernels (SVE included, which
the PMU lane's Cortex-A57 and Neoverse-N1 lack) execute exactly the instructions their
table expects. VK_RUN (vk_run.c, built static for aarch64) runs under
`qemu-aarch64 -cpu max -singlestep -d nochain,exec`, which logs one line per executed
instruction; runs of n and 2n iterations are differenced (the program's start and exit
cancel). Exit 0 pass, 1 fail."""
import concurrent.futures
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)

report_check.guard()


def executed(qemu, vk, kernel, n, tmp):
    log = os.path.join(tmp, "exec-%s-%d.log" % (kernel, n))
    # A run is a few seconds idle (the static program's start is ~600k logged
    # instructions); the bound leaves room for a loaded 2-core CI machine.
    subprocess.run([qemu, "-cpu", "max", "-singlestep", "-d", "nochain,exec", "-D", log, vk,
                    kernel, str(n)], check=True, timeout=300)
    with open(log, errors="replace") as f:
        count = sum(1 for line in f if line.startswith("Trace"))
    os.unlink(log)
    return count


def difference(qemu, vk, kernel, n, tmp):
    return executed(qemu, vk, kernel, 2 * n, tmp) - executed(qemu, vk, kernel, n, tmp)


def main():
    qemu, vk = sys.argv[1], sys.argv[2]
    listing = subprocess.run([qemu, "-cpu", "max", vk], capture_output=True, text=True,
                             check=True).stdout.split("\n")
    failures, checked = 0, 0
    n = 100
    kernels = [line.split() for line in filter(None, listing)]
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        runs = {name: pool.submit(difference, qemu, vk, name, n, tmp)
                for name, lack, _ in kernels if lack == "-"}
        for name, lack, per_iter in kernels:
            if lack != "-":
                print("FAIL: %s cannot run under -cpu max (needs %s)" % (name, lack))
                failures += 1
                continue
            got = runs[name].result()
            want = float(per_iter) * n
            print("%-17s %d instructions for %d iterations, expected %.0f" % (name, got, n, want))
            if got != want:
                print("FAIL: %s" % name)
                failures += 1
            checked += 1
    if failures or checked < 16:
        print("%d failure(s), %d kernels checked" % (failures, checked))
        return 1
    print("check_kernels_qemu: %d arm64 kernels exact: PASSED" % checked)
    return 0


if __name__ == "__main__":
    sys.exit(main())
