# Environment modules for the installed tree: <datadir>/modulefiles/papi-compat/<version>.lua
# (Lmod) and <datadir>/modulefiles/papi-compat/<version> (Tcl: environment-modules, and
# Lmod too). `cmake --install` writes the final install prefix into both (CMAKE_INSTALL_PREFIX
# at install time: --prefix and DESTDIR are honoured, and CPack's staging directory is not
# taken for the prefix), so a copy or a symbolic link of them in a site's module tree loads
# this install. A tree moved afterwards: <prefix>/<datadir>/papi-compat/relocate-modulefiles.sh
# rewrites the prefix (installed beside; the tree stays relocatable, as papi.pc and the
# RUNPATHs are). Environment modules 4+ reads only files starting with #%Module, so the
# .lua file beside the Tcl one is not taken for a second version; Lmod prefers the .lua.
set(PAPI_MODULE_DIR ${CMAKE_INSTALL_DATADIR}/modulefiles/papi-compat)
set(PAPI_MODULE_RELOCATE ${CMAKE_INSTALL_DATADIR}/papi-compat/relocate-modulefiles.sh)
file(RELATIVE_PATH PAPI_MODULE_RELOCATE_UP /${CMAKE_INSTALL_DATADIR}/papi-compat /)
# configure_file keeps the prefix as a marker (the marker is the replacement of itself);
# the install step puts the real prefix in, quoted for each language
# (cmake/PapiModulefilesQuote.cmake): a directory name may hold any character.
set(PAPI_MODULE_PREFIX_TCL "@PAPI_MODULE_PREFIX_TCL@")
set(PAPI_MODULE_PREFIX_LUA "@PAPI_MODULE_PREFIX_LUA@")
set(papi_mod ${CMAKE_CURRENT_BINARY_DIR}/modulefiles)
foreach(kind lua tcl)
  configure_file(${PROJECT_SOURCE_DIR}/packaging/modulefiles/papi-compat.${kind}.in
    ${papi_mod}/${PROJECT_VERSION}.${kind}.in @ONLY)
endforeach()
configure_file(${PROJECT_SOURCE_DIR}/packaging/modulefiles/relocate-modulefiles.sh.in
  ${papi_mod}/relocate-modulefiles.sh @ONLY)
# CPack installs into a staging directory: then the prefix is the packages' own.
install(CODE "
  set(PAPI_MODULE_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  if(CPACK_PACKAGING_INSTALL_PREFIX)
    set(PAPI_MODULE_PREFIX \"\${CPACK_PACKAGING_INSTALL_PREFIX}\")
  endif()
  include(\"${PROJECT_SOURCE_DIR}/cmake/PapiModulefilesQuote.cmake\")
  configure_file(\"${papi_mod}/${PROJECT_VERSION}.lua.in\" \"${papi_mod}/install/${PROJECT_VERSION}.lua\" @ONLY)
  configure_file(\"${papi_mod}/${PROJECT_VERSION}.tcl.in\" \"${papi_mod}/install/${PROJECT_VERSION}\" @ONLY)
  file(INSTALL DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${PAPI_MODULE_DIR}\" TYPE FILE
       FILES \"${papi_mod}/install/${PROJECT_VERSION}.lua\" \"${papi_mod}/install/${PROJECT_VERSION}\")
  message(STATUS \"Modulefiles name the prefix \${PAPI_MODULE_PREFIX}\")" COMPONENT dev)
install(PROGRAMS ${papi_mod}/relocate-modulefiles.sh DESTINATION ${CMAKE_INSTALL_DATADIR}/papi-compat
        COMPONENT dev)
