# PapiDebTree.cmake: what the scripts CPack runs on its .deb files (PapiDebTriggers.cmake,
# PapiDebFiles.cmake) share: a package unpacked into a directory and built again from it.

# deb unpacked into tree, made afresh (the control files in tree/DEBIAN).
function(papi_deb_unpack deb tree)
  file(REMOVE_RECURSE "${tree}")
  execute_process(COMMAND dpkg-deb -R "${deb}" "${tree}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "dpkg-deb -R ${deb} failed")
  endif()
endfunction()

# deb built again from tree, its files owned by root; further dpkg-deb options (-Zxz) follow.
function(papi_deb_repack tree deb)
  execute_process(COMMAND dpkg-deb --root-owner-group ${ARGN} -b "${tree}" "${deb}"
                  OUTPUT_QUIET RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "dpkg-deb -b ${deb} failed")
  endif()
endfunction()
