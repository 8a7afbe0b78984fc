# Spack package of papi-compat, a PAPI-compatible performance counter library.
# Put packaging/spack in a repository (`spack repo add packaging/spack`) and
# `spack install papi-compat +fortran mpi=mpich,openmpi`. To let packages that depends_on("papi")
# use an install of it, declare it as an external papi (see packaging/README.md).
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
    variant("static", default=True,
            description="Install libpapi.a (the archive and the ld script for libpfm4 and hwloc)")
    # One PMPI wrapper library per MPI, side by side in one install (libpapi_mpi_mpich.so,
    # libpapi_mpi_openmpi.so; the first is also libpapi_mpi.so): mpi=mpich,openmpi.
    variant("mpi", values=any_combination_of("mpich", "openmpi"),
            description="MPIs to build the PMPI wrapper library for (none: no wrapper)")
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
        # Multi-valued: a tuple of the chosen MPIs, or ("none",).
        flavours = [f for f in self.spec.variants["mpi"].value if f != "none"]
        args = [
            self.define_from_variant("PAPI_WITH_FORTRAN", "fortran"),
            self.define_from_variant("PAPI_WITH_HWLOC", "hwloc"),
            self.define_from_variant("PAPI_INSTALL_STATIC", "static"),
            self.define_from_variant("PAPI_BUILD_TESTS", "tests"),
            self.define("PAPI_BUILD_BENCH", False),
            self.define("PAPI_WITH_MPI", bool(flavours)),
        ]
        if flavours:
            # The project's list, in its order (mpich first: the default libpapi_mpi.so).
            args.append(self.define("PAPI_MPI_FLAVORS", [f for f in ("mpich", "openmpi") if f in flavours]))
        return args

    def setup_run_environment(self, env):
        env.set("PAPI_ROOT", self.prefix)

    @property
    def libs(self):
        return find_libraries("libpapi", root=self.prefix, shared=True, recursive=True)
