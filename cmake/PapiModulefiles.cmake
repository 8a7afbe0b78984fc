# Environment modules for the installed tree: <datadir>/modulefiles/papi-compat/<version>.lua
# (Lmod) and <datadir>/modulefiles/papi-compat/<version> (Tcl: environment-modules, and
# Lmod too). Both find the install prefix from their own location, so the tree stays
# relocatable (as papi.pc and the RUNPATHs are): `module use <prefix>/share/modulefiles`.
# Environment modules 4+ reads only files starting with #%Module, so the .lua file beside
# the Tcl one is not taken for a second version; Lmod prefers the .lua of a pair.
set(PAPI_MODULE_DIR ${CMAKE_INSTALL_DATADIR}/modulefiles/papi-compat)
file(RELATIVE_PATH PAPI_MODULE_UP /${PAPI_MODULE_DIR} /)
string(REGEX MATCHALL "\\.\\." PAPI_MODULE_UP_LIST "${PAPI_MODULE_UP}")
list(LENGTH PAPI_MODULE_UP_LIST PAPI_MODULE_LEVELS)
foreach(kind lua tcl)
  configure_file(${PROJECT_SOURCE_DIR}/packaging/modulefiles/papi-compat.${kind}.in
    ${CMAKE_CURRENT_BINARY_DIR}/modulefiles/${PROJECT_VERSION}.${kind} @ONLY)
endforeach()
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/modulefiles/${PROJECT_VERSION}.lua
        DESTINATION ${PAPI_MODULE_DIR} COMPONENT dev)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/modulefiles/${PROJECT_VERSION}.tcl
        DESTINATION ${PAPI_MODULE_DIR} RENAME ${PROJECT_VERSION} COMPONENT dev)
