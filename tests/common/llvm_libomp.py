"""Whether LLVM's OpenMP runtime (libomp.so.5) is installed: the checkers that run an
OpenMP program under it (the GNU one has no OMPT) skip without it.
    import llvm_libomp
    llvm_libomp.require()          # SKIPPED and exit 77 when it is not installed
"""
import subprocess
import sys


def installed():
    """Whether the loader finds LLVM's libomp.so.5 (ldconfig's cache)."""
    out = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout
    return any(line.strip().startswith("libomp.so.5 ") for line in out.splitlines())


def require():
    """Exit 77 (SKIPPED, the line printed) unless LLVM's libomp.so.5 is installed."""
    if not installed():
        print("SKIPPED: LLVM's libomp.so.5 is not installed (Debian: libomp5-14)")
        sys.stdout.flush()
        sys.exit(77)
