# libpfm4: Debian's libpfm4-dev ships no pkg-config file, so look for it directly.
find_path(LIBPFM_INCLUDE_DIR perfmon/pfmlib_perf_event.h)
find_library(LIBPFM_LIBRARY NAMES pfm)
if(NOT LIBPFM_INCLUDE_DIR OR NOT LIBPFM_LIBRARY)
  message(FATAL_ERROR "libpfm4 not found: install libpfm4-dev (apt-get install libpfm4-dev)")
endif()
add_library(Libpfm::pfm UNKNOWN IMPORTED)
set_target_properties(Libpfm::pfm PROPERTIES IMPORTED_LOCATION "${LIBPFM_LIBRARY}"
  INTERFACE_INCLUDE_DIRECTORIES "${LIBPFM_INCLUDE_DIR}")
