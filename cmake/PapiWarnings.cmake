# Warnings every target of the project gets; errors when PAPI_WERROR is on (CI).
add_library(papi_warnings INTERFACE)
target_compile_options(papi_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wshadow -Wstrict-prototypes -Wformat=2 -Wundef>
  $<$<AND:$<COMPILE_LANGUAGE:C>,$<BOOL:${PAPI_WERROR}>>:-Werror>
  $<$<AND:$<COMPILE_LANGUAGE:Fortran>,$<BOOL:${PAPI_WERROR}>>:-Werror>)
if(PAPI_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
endif()
