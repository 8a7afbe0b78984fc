# Install-time script (src-fortran/CMakeLists.txt): write the plain papif.pc of the prefix.
# papi.mod is compiler specific and neither gfortran nor flang skips the other's module
# file on its search path, so pkg-config cannot hand one module directory to "the
# compiler that asks". Instead: with one compiler's module in the prefix, papif.pc is that
# compiler's papif-<tag>.pc; with several, papif.pc requires a package whose name lists
# the choices, so `pkg-config papif` fails with "Package papif-gnu-12_or_papif-llvmflang-16
# was not found": never silently the module of the last install.
# In: PAPI_PC_DIR (relative to the prefix), PAPI_FORTRAN_MODROOT (include/fortran).
set(root "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}")
file(GLOB tags LIST_DIRECTORIES true RELATIVE "${root}/${PAPI_FORTRAN_MODROOT}"
     "${root}/${PAPI_FORTRAN_MODROOT}/*")
set(have)
foreach(tag ${tags})
  if(EXISTS "${root}/${PAPI_PC_DIR}/papif-${tag}.pc")
    list(APPEND have ${tag})
  endif()
endforeach()
list(SORT have)
list(LENGTH have n)
set(plain "${root}/${PAPI_PC_DIR}/papif.pc")
if(n EQUAL 1)
  file(READ "${root}/${PAPI_PC_DIR}/papif-${have}.pc" text)
  file(WRITE "${plain}" "${text}")
elseif(n GREATER 1)
  list(TRANSFORM have PREPEND "papif-")
  string(REPLACE ";" "_or_" choice "${have}")
  string(REPLACE ";" ", " listed "${have}")
  file(WRITE "${plain}" "# papif.pc: this prefix has the Fortran module `papi` for several compilers
# (${listed}); papi.mod of one compiler cannot be read by another, so ask for
# the one of your compiler by name: pkg-config --cflags --libs <one of them>
Name: papif
Description: Fortran module `use papi`: choose one of ${listed} (compiler specific)
Version: @PAPI_API_VERSION@
Requires: ${choice}
")
endif()
message(STATUS "papif.pc: ${n} Fortran module(s) in the prefix: ${have}")
