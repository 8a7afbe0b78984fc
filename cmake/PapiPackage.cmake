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
# papi.pc finds its prefix relative to itself, so `cmake --install --prefix X` works.
file(RELATIVE_PATH PAPI_PC_UP /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
# libpapi.a needs hwloc too: `pkg-config --static papi` gives its whole link line.
set(PAPI_PC_REQUIRES_PRIVATE "")
if(PAPI_WITH_HWLOC)
  set(PAPI_PC_REQUIRES_PRIVATE hwloc)
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/papi.pc.in ${CMAKE_CURRENT_BINARY_DIR}/papi.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/papi.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
