# find_package(PAPI) support (PAPI::papi, PAPI::papi_static) and papi.pc.
include(CMakePackageConfigHelpers)
install(EXPORT PAPITargets NAMESPACE PAPI:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/PAPI)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/PAPIConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/PAPIConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/PAPI)
# find_package(PAPI 7) checks the PAPI API level, as it does with PAPI itself.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/PAPIConfigVersion.cmake
  VERSION ${PAPI_API_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/PAPIConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/PAPIConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/PapiFortranTag.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/PAPI)
# papi.pc: under /usr (the Debian packages) it names /usr and adds no RUNPATH (the
# system's library directory needs none); elsewhere it finds its prefix relative to
# itself, so `cmake --install --prefix X` works, and gives programs a RUNPATH to it.
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(PAPI_PC_PREFIX /usr)
  set(PAPI_PC_RPATH "")
else()
  file(RELATIVE_PATH PAPI_PC_UP /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
  string(REGEX REPLACE "/$" "" PAPI_PC_UP "${PAPI_PC_UP}")
  set(PAPI_PC_PREFIX "\${pcfiledir}/${PAPI_PC_UP}")
  set(PAPI_PC_RPATH " -Wl,-rpath,\${libdir}")
endif()
# libpapi.a needs libpfm4 and libc alone (hwloc is loaded at run time, with dlopen:
# -ldl for C libraries older than glibc 2.34).
set(PAPI_PC_LIBS_PRIVATE "-lpfm")
if(CMAKE_DL_LIBS)
  string(APPEND PAPI_PC_LIBS_PRIVATE " -l${CMAKE_DL_LIBS}")
endif()
if(CMAKE_THREAD_LIBS_INIT)
  string(APPEND PAPI_PC_LIBS_PRIVATE " ${CMAKE_THREAD_LIBS_INIT}")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/papi.pc.in ${CMAKE_CURRENT_BINARY_DIR}/papi.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/papi.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
