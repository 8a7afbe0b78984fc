# Debian packages from CPack (`cpack -G DEB` in a build configured with
# -DCMAKE_INSTALL_PREFIX=/usr, so the libraries go to the multiarch directory
# /usr/lib/<triplet> as GNUInstallDirs names it; scripts/packaging-lane.sh makes one),
# one per install component:
#   libpapi-compat7         runtime: libpapi.so.7, libpapif.so.7, libpapi_kokkos.so(.7) (the
#                           Kokkos Tools connector Kokkos dlopens by the unversioned name)
#   libpapi-compat-dev      headers, Fortran modules and include files, libpapi.so,
#                           libpapi.a (an archive needing only libpfm4: hwloc is loaded
#                           at run time), CMake and pkg-config files, section 3/5/7
#                           manual pages, modulefiles
#   papi-compat-tools       the papi_* utilities and their manual pages
#   libsde-compat1          libsde.so.1, software-defined events (sde_lib.h): the file
#                           Debian's libsde1 owns, so it Conflicts with, Replaces and
#                           Provides libsde1 (libsde.so and libsde.a are in the dev package)
#   libpapi-compat-mpi-<F>  the PMPI wrapper built for MPI flavour F: every install
#                           component named mpi-<F> becomes one package, so the list
#                           follows whichever flavours the build made.
# Against Debian's own PAPI: the runtime coexists with libpapi7.0 (its files are
# libpapi.so.7.0*, ours libpapi.so.7*, and programs built against either keep their
# library); the dev and tools packages own the same names as libpapi-dev and papi-tools
# (/usr/include/papi.h, /usr/bin/papi_avail, ...), so they Conflict with, Replace and
# Provide them: apt swaps one for the other, and packages that depend on libpapi-dev or
# papi-tools are satisfied by ours. Versions: the packages carry the project's release
# (1.0.0); what they Provide carries the PAPI API level with a Debian revision above any
# of Debian's 7.0.0 packages, since those pin their siblings to the revision
# (papi-examples: libpapi-dev (>= 7.0.0-2), libpapi-dev (<< 7.0.0.~-~)).
# No maintainer scripts: the libraries' ldconfig runs from dpkg's ldconfig trigger
# (PapiDebTriggers.cmake), so `dpkg -r` leaves nothing behind (a postrm would keep each
# package in the `rc` state until purged).
set(CPACK_PACKAGE_NAME papi-compat)
set(CPACK_PACKAGE_VENDOR "papi-compat")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "PAPI-compatible performance counter library on Linux perf_event")
set(CPACK_PACKAGE_CONTACT "papi-compat maintainers <papi-compat@lists.example.org>")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
# dpkg-shlibdeps derives each package's library dependencies (libpfm4, libhwloc15,
# libmpich12, libgfortran5, ...) from what the binaries really link.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
# Our own libraries (libpapi.so.7 for the wrapper and libpapif) are in another package of
# this set: dpkg-shlibdeps finds them in the build tree; the Depends lines below name it.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR}/src-c ${PROJECT_BINARY_DIR}/src-fortran)

get_cmake_property(papi_components COMPONENTS)
list(REMOVE_ITEM papi_components Unspecified)
set(CPACK_COMPONENTS_ALL ${papi_components})
set(papi_dep "libpapi-compat7 (= ${PROJECT_VERSION}-1)")
set(papi_provides_version "${PAPI_API_VERSION}-99")
# The ldconfig trigger, then Debian's files (copyright, changelog, compressed manual pages,
# stripped binaries, lintian overrides): packaging/debian/README.md.
set(CPACK_POST_BUILD_SCRIPTS ${CMAKE_CURRENT_LIST_DIR}/PapiDebTriggers.cmake
                             ${CMAKE_CURRENT_LIST_DIR}/PapiDebFiles.cmake)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libpapi-compat7)
# PAPI_SAMPLE names functions with libdw, loaded at exit with dlopen (dladdr without it).
set(CPACK_DEBIAN_RUNTIME_PACKAGE_RECOMMENDS "libdw1")
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "PAPI-compatible performance counter library (runtime)
 libpapi.so.7 with the PAPI 7.0 API (and the 3.5 calls), on Linux perf_event
 with libpfm4 and hwloc; libpapif.so.7 for the Fortran module;
 libpapi_kokkos.so, the Kokkos Tools connector (every Kokkos kernel a PAPI
 region). Coexists with Debian's libpapi7.0.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libpapi-compat-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
# libpfm4-dev: libpfm.a and -lpfm for libpapi.a (`pkg-config --static papi`), nothing more.
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "${papi_dep}, libsde-compat1 (= ${PROJECT_VERSION}-1), libpfm4-dev, pkg-config")
set(CPACK_DEBIAN_DEV_PACKAGE_CONFLICTS "libpapi-dev")
set(CPACK_DEBIAN_DEV_PACKAGE_REPLACES "libpapi-dev")
set(CPACK_DEBIAN_DEV_PACKAGE_PROVIDES "libpapi-dev (= ${papi_provides_version})")
set(CPACK_COMPONENT_DEV_DESCRIPTION "PAPI-compatible performance counter library (development)
 Headers (papi.h), the Fortran module (use papi) and include files (fpapi.h),
 the static library, CMake (find_package(PAPI)) and pkg-config files, manual
 pages and environment modulefiles. Replaces Debian's libpapi-dev.")

# libsde.so.1: libpapi finds it at run time (never linked), so it is a package of its own
# that replaces Debian's libsde1 (which libpapi7.0 does not depend on: that stays).
set(CPACK_DEBIAN_SDE_PACKAGE_NAME libsde-compat1)
set(CPACK_DEBIAN_SDE_PACKAGE_CONFLICTS "libsde1")
set(CPACK_DEBIAN_SDE_PACKAGE_REPLACES "libsde1")
set(CPACK_DEBIAN_SDE_PACKAGE_PROVIDES "libsde1 (= ${papi_provides_version})")
set(CPACK_COMPONENT_SDE_DESCRIPTION "PAPI-compatible software-defined events library (runtime)
 libsde.so.1, with PAPI 7's sde_lib.h API: libraries export their own counters,
 which papi-compat's libpapi counts as sde:::LIB::COUNTER. Replaces Debian's
 libsde1.")

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME papi-compat-tools)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION utils)
# papi_hl_output_writer (a PAPI 7 tool of this package) and papi_report's tables need
# pandas: a Depends, so --no-install-recommends never leaves them broken. Only
# papi_report's figures need matplotlib: without it papi_report exits 1 naming the package.
set(CPACK_DEBIAN_TOOLS_PACKAGE_DEPENDS "${papi_dep}, python3, python3-pandas")
set(CPACK_DEBIAN_TOOLS_PACKAGE_RECOMMENDS "python3-matplotlib")
# The Python module papi (ctypes, /usr/lib/python3/dist-packages/papi): numpy and pandas
# results on request, mpi4py beside it under the MPI wrapper.
set(CPACK_DEBIAN_TOOLS_PACKAGE_SUGGESTS "python3-numpy, python3-mpi4py")
set(CPACK_DEBIAN_TOOLS_PACKAGE_CONFLICTS "papi-tools")
set(CPACK_DEBIAN_TOOLS_PACKAGE_REPLACES "papi-tools")
set(CPACK_DEBIAN_TOOLS_PACKAGE_PROVIDES "papi-tools (= ${papi_provides_version})")
set(CPACK_COMPONENT_TOOLS_DESCRIPTION "PAPI-compatible performance counter tools
 papi_avail, papi_native_avail, papi_component_avail and the other papi_*
 utilities of PAPI 7, papi_hl_output_writer, papi_mpi_collect and papi_report,
 and the Python module papi (import papi: event sets, regions, hardware
 information). Replaces Debian's papi-tools.")

foreach(comp ${papi_components})
  if(comp MATCHES "^mpi-(.+)$")
    set(flavour ${CMAKE_MATCH_1})
    string(TOUPPER ${comp} COMP)
    set(CPACK_DEBIAN_${COMP}_PACKAGE_NAME libpapi-compat-mpi-${flavour})
    set(CPACK_DEBIAN_${COMP}_PACKAGE_DEPENDS "${papi_dep}")
    set(CPACK_COMPONENT_${COMP}_DESCRIPTION "PMPI wrapper of papi-compat for ${flavour}
 libpapi_mpi for programs built with ${flavour}: per-rank counters and MPI
 call statistics aggregated at MPI_Finalize (link it or LD_PRELOAD it).")
  endif()
endforeach()
include(CPack)
