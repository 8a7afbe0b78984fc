"""papi_report.load.compat_version: the papi-compat release of the libpapi installed beside a
tool, asked of that library (PAPI_compat_version, through ctypes): what papi_report
--version and papi_mpi_collect --version print. The standard library only, no import of
the package: both tools load this module without the package's __init__ (pandas), so
--version answers where pandas is missing."""
import argparse
import ctypes
import glob
import os


def compat_version(bindir):
    """The release of the first libpapi.so.* with PAPI_compat_version under BINDIR/../lib*
    (lib, lib64, or a multiarch lib/<triplet>): BINDIR is the tool's own directory,
    <prefix>/bin once installed. "unknown (no libpapi beside BINDIR)" where there is none
    (the source tree)."""
    up = os.path.join(bindir, "..")
    libs = glob.glob(os.path.join(up, "lib*", "libpapi.so.*")) + \
        glob.glob(os.path.join(up, "lib*", "*", "libpapi.so.*"))
    for lib in sorted(libs):
        try:
            f = ctypes.CDLL(lib).PAPI_compat_version
        except (OSError, AttributeError):  # not loadable here, or another PAPI's library
            continue
        f.restype = ctypes.c_char_p
        return f().decode()
    return "unknown (no libpapi beside %s)" % bindir


class VersionAction(argparse.Action):
    """--version for a tool's argparse parser: prints "TOOL (papi-compat) RELEASE" and exits
    0; the library is loaded only when --version is given, not on every run.
    add_argument("--version", action=VersionAction, tool=NAME, bindir=DIR)."""

    def __init__(self, option_strings, tool, bindir, dest=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=argparse.SUPPRESS, nargs=0,
                         help=help or "print the papi-compat release of the libpapi "
                                      "installed beside %s and exit" % tool)
        self.tool, self.bindir = tool, bindir

    def __call__(self, parser, namespace, values, option_string=None):
        print("%s (papi-compat) %s" % (self.tool, compat_version(self.bindir)))
        parser.exit(0)
