# Spack package of papi-compat, a PAPI-compatible performance counter library.
# Put packaging/spack in a repository (`spack repo add packaging/spack`) and
# `spack install papi-compat +fortran mpi=mpich`. To let packages that depends_on("papi")
# use an install of it, declare it as an external papi (see packaging/README.md).
import os

from spack.package import *


class PapiCompat(CMakePackage):
    """PAPI-compatible performance counter library on Linux perf_event: the PAPI 7.0 API
    and the 3.5 calls (PAPI_flops, PAPIF_*), libpfm4 for native events, hwloc for the
    hardware description, a generated Fortran module, PMPI wrappers per MPI and the
    papi_* utilities."""

    homepage = "https://example.invalid/papi-compat"
    # A site builds from its own copy of the sources (spack install --source-dir or a
    # mirror); the checksum is the release tarball's.
    url = "https://example.invalid/papi-compat/papi-compat-1.0.0.tar.gz"
    maintainers("papi-compat")
    license("BSD-3-Clause")

    version("1.0.0", sha256="0" * 64)

    variant("fortran", default=True, description="Fortran module (use papi), fpapi.h and PAPIF_*")
    variant("hwloc", default=True, description="Hardware and topology information from hwloc")
    variant("static", default=True, description="Install libpapi.a (with the ld script for libpfm4 and hwloc)")
    # One flavour per build for now (-DPAPI_MPI_PKG); install a second spec for the other.
    variant("mpi", default="none", multi=False, values=("none", "mpich", "openmpi"),
            description="Build the PMPI wrapper library for this MPI flavour")
    variant("tests", default=False, description="Build the test programs (ctest)")

    depends_on("c", type="build")
    depends_on("fortran", type="build", when="+fortran")
    depends_on("cmake@3.20:", type="build")
    depends_on("pkgconfig", type="build")
    depends_on("python@3:", type=("build", "run"))
    depends_on("libpfm4")
    depends_on("hwloc", when="+hwloc")
    depends_on("mpich", when="mpi=mpich")
    depends_on("openmpi", when="mpi=openmpi")

    # Linux perf_event only.
    requires("platform=linux", msg="papi-compat counts through Linux perf_event")

    def cmake_args(self):
        flavour = self.spec.variants["mpi"].value
        args = [
            self.define_from_variant("PAPI_WITH_FORTRAN", "fortran"),
            self.define_from_variant("PAPI_WITH_HWLOC", "hwloc"),
            self.define_from_variant("PAPI_BUILD_TESTS", "tests"),
            self.define("PAPI_BUILD_BENCH", False),
            self.define("PAPI_WITH_MPI", flavour != "none"),
        ]
        if flavour != "none":
            # pkg-config module names: mpich's own, Open MPI's "ompi".
            args.append(self.define("PAPI_MPI_PKG", {"mpich": "mpich", "openmpi": "ompi"}[flavour]))
        return args

    @run_after("install")
    def drop_static(self):
        if "~static" in self.spec:
            for name in ("libpapi.a", "libpapi_static.a"):
                lib = join_path(self.prefix.lib, name)
                if os.path.exists(lib):
                    os.remove(lib)

    def setup_run_environment(self, env):
        env.set("PAPI_ROOT", self.prefix)

    @property
    def libs(self):
        return find_libraries("libpapi", root=self.prefix, shared=True, recursive=True)
