# PapiDebFiles.cmake: run by CPack after it made the .deb files (CPACK_POST_BUILD_SCRIPTS,
# after PapiDebTriggers.cmake): what Debian's policy asks of every package and CPack does
# not write (packaging/debian/README.md): the copyright file and changelog.Debian.gz,
# manual pages compressed (gzip -9n), ELF files stripped, DEBIAN/md5sums written again,
# and lintian overrides for what is deliberate. Run with CPACK_* variables set by CPack.
include("${CMAKE_CURRENT_LIST_DIR}/PapiDebTree.cmake")
set(debian_dir "${CMAKE_CURRENT_LIST_DIR}/../packaging/debian")
string(TIMESTAMP date "%a, %d %b %Y %H:%M:%S +0000" UTC)
if(DEFINED ENV{SOURCE_DATE_EPOCH})
  set(date "Thu, 01 Jan 1970 00:00:00 +0000") # reproducible: no build date
endif()
file(READ "${debian_dir}/changelog.in" changelog_in)
find_program(strip_cmd NAMES strip REQUIRED)

foreach(deb IN LISTS CPACK_PACKAGE_FILES)
  if(NOT deb MATCHES "\\.deb$")
    continue()
  endif()
  get_filename_component(base "${deb}" NAME)
  string(REGEX REPLACE "_.*" "" pkg "${base}")
  set(tree "${deb}.files")
  papi_deb_unpack("${deb}" "${tree}")
  # copyright and changelog.Debian.gz
  set(doc "${tree}/usr/share/doc/${pkg}")
  file(MAKE_DIRECTORY "${doc}")
  configure_file("${debian_dir}/copyright" "${doc}/copyright" COPYONLY)
  string(REPLACE "@PACKAGE@" "${pkg}" text "${changelog_in}")
  string(REPLACE "@VERSION@" "${CPACK_PACKAGE_VERSION}" text "${text}")
  string(REPLACE "@MAINTAINER@" "${CPACK_PACKAGE_CONTACT}" text "${text}")
  string(REPLACE "@DATE@" "${date}" text "${text}")
  file(WRITE "${doc}/changelog.Debian" "${text}")
  # Manual pages: gzip -9n (no name or time in the header: reproducible).
  file(GLOB_RECURSE pages "${tree}/usr/share/man/*")
  list(APPEND pages "${doc}/changelog.Debian")
  foreach(p IN LISTS pages)
    if(NOT p MATCHES "\\.gz$" AND NOT IS_SYMLINK "${p}")
      execute_process(COMMAND gzip -9nf "${p}" RESULT_VARIABLE rc)
      if(NOT rc EQUAL 0)
        message(FATAL_ERROR "gzip ${p} failed")
      endif()
    endif()
  endforeach()
  # ELF files stripped: executables and shared libraries of their symbols not needed to
  # run, static archives of their debugging information.
  file(GLOB_RECURSE objs "${tree}/usr/bin/*" "${tree}/usr/lib/*.so*" "${tree}/usr/lib/*.a")
  foreach(o IN LISTS objs)
    if(IS_SYMLINK "${o}")
      continue()
    endif()
    file(READ "${o}" magic LIMIT 4 HEX)
    if(o MATCHES "\\.a$")
      execute_process(COMMAND ${strip_cmd} --strip-debug "${o}")
    elseif(magic STREQUAL "7f454c46")
      execute_process(COMMAND ${strip_cmd} --strip-unneeded --remove-section=.comment
                              --remove-section=.note "${o}")
    endif()
  endforeach()
  # Lintian overrides of what is deliberate (packaging/debian/README.md says why).
  # Not an upload to Debian: no ITP bug for the changelog to close.
  set(overrides "${pkg}: initial-upload-closes-no-bugs *\n")
  if(pkg STREQUAL "papi-compat-tools")
    string(APPEND overrides "${pkg}: hardening-no-pie [usr/bin/*]\n")
  endif()
  if(pkg MATCHES "^(libpapi-compat(7|-mpi-.*)|libsde-compat1)$")
    string(APPEND overrides "${pkg}: package-name-doesnt-match-sonames *\n")
  endif()
  if(pkg MATCHES "^libpapi-compat(7|-mpi-.*)$")
    string(APPEND overrides "${pkg}: link-to-shared-library-in-wrong-package *\n")
  endif()
  file(WRITE "${tree}/usr/share/lintian/overrides/${pkg}" "${overrides}")
  # DEBIAN/md5sums of the files as they are now.
  execute_process(COMMAND sh -c "find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum"
                  WORKING_DIRECTORY "${tree}" OUTPUT_VARIABLE sums RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "md5sum in ${tree} failed")
  endif()
  file(WRITE "${tree}/DEBIAN/md5sums" "${sums}")
  papi_deb_repack("${tree}" "${deb}" -Zxz)
  file(REMOVE_RECURSE "${tree}")
endforeach()
