# papi_fortran_tag(OUT ID VERSION): the name of a Fortran compiler's module format,
# "<compiler id>-<major version>" in lower case (gnu-12, llvmflang-16): the directory
# include/fortran/<tag>/ of papi.mod and the suffix of its CMake and pkg-config files.
# Used by the build and by the installed PAPIConfig.cmake (so both compute it alike).
function(papi_fortran_tag out id version)
  string(TOLOWER "${id}" id)
  string(REGEX MATCH "^[0-9]+" major "${version}")
  set(${out} "${id}-${major}" PARENT_SCOPE)
endfunction()
