# Warnings every target of the project gets; errors when PAPI_WERROR is on (CI).
add_library(papi_warnings INTERFACE)
target_compile_options(papi_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wshadow -Wstrict-prototypes -Wformat=2 -Wundef>
  $<$<AND:$<COMPILE_LANGUAGE:C>,$<BOOL:${PAPI_WERROR}>>:-Werror>
  $<$<AND:$<COMPILE_LANGUAGE:Fortran>,$<BOOL:${PAPI_WERROR}>>:-Werror>)
# The object sets of the project's libraries: hidden symbols (a library exports what its
# public headers declare, nothing else), these warnings, glibc's GNU extensions.
function(papi_library_objects target)
  target_compile_options(${target} PRIVATE -fvisibility=hidden)
  target_link_libraries(${target} PRIVATE papi_warnings)
  target_compile_definitions(${target} PRIVATE _GNU_SOURCE)
endfunction()
if(PAPI_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
endif()
if(PAPI_TSAN)
  if(PAPI_SANITIZE)
    message(FATAL_ERROR "PAPI_TSAN and PAPI_SANITIZE exclude each other (two builds)")
  endif()
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
endif()
if(PAPI_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "PAPI_FUZZ needs clang (libFuzzer): CC=clang")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
