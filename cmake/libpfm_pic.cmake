# libpfm_pic.cmake: makes a libpfm.a that links into a shared object (pbdPAPI's and
# papi-wrap's `<prefix>/lib/libpfm.a` inside an R package or a preloaded library), from
# Debian's, whose members are compiled for a position-independent executable: they reach
# libpfm4's own globals (pfm_cfg, the PMU tables) and the C library's stderr and stdout
# PC-relative, which `ld -shared` refuses ("relocation R_X86_64_PC32 against symbol ...
# recompile with -fPIC") because a shared object's globals may be interposed. So:
#   1. every member in one relocatable object (ld -r): libpfm4's references between its
#      files are then inside one object;
#   2. stderr/stdout renamed to two pointers of libpfm_pic_streams.c (STREAMS), added to
#      that object;
#   3. every symbol local but the functions libpfm.so exports (its dynamic symbol table):
#      the PC-relative references then reach local symbols, which nothing can interpose,
#      and the archive offers what the shared library offers, nothing more.
# cmake -DARCHIVE=libpfm.a -DSHARED=libpfm.so -DSTREAMS=obj.o -DOUT=libpfm.a -DWORK=dir
#       -DLD=ld -DOBJCOPY=objcopy -DAR=ar -DNM=nm -P libpfm_pic.cmake
foreach(v ARCHIVE SHARED STREAMS OUT WORK LD OBJCOPY AR NM)
  if(NOT ${v})
    message(FATAL_ERROR "libpfm_pic.cmake: ${v} not given")
  endif()
endforeach()
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "libpfm_pic.cmake: ${what} failed (${rc}): ${err}")
  endif()
  set(run_out "${out}" PARENT_SCOPE)
endfunction()
file(MAKE_DIRECTORY ${WORK})
run("ld -r of ${ARCHIVE}" ${LD} -r --whole-archive ${ARCHIVE} -o ${WORK}/pfm_all.o)
run("renaming stderr and stdout" ${OBJCOPY} --redefine-sym stderr=papi_pfm_stderr
    --redefine-sym stdout=papi_pfm_stdout ${WORK}/pfm_all.o ${WORK}/pfm_renamed.o)
# Nothing of libpfm4 may reach the C library's streams but through the pointers.
run("nm of the renamed object" ${NM} -u ${WORK}/pfm_renamed.o)
if(run_out MATCHES "(^|\n)[ \t]*U (stderr|stdout)(@|\n|$)")
  message(FATAL_ERROR "libpfm_pic.cmake: stderr/stdout still referenced directly")
endif()
run("ld -r with the streams" ${LD} -r ${WORK}/pfm_renamed.o ${STREAMS} -o ${WORK}/pfm_merged.o)
run("nm -D of ${SHARED}" ${NM} -D --defined-only ${SHARED})
string(REGEX MATCHALL "[0-9a-fA-F]+ [TW] [A-Za-z_][A-Za-z0-9_]*" api "${run_out}")
list(TRANSFORM api REPLACE "^[0-9a-fA-F]+ [TW] " "")
list(FILTER api INCLUDE REGEX "^pfm_")
list(LENGTH api n)
if(n LESS 5)
  message(FATAL_ERROR "libpfm_pic.cmake: ${SHARED} exports ${n} pfm_ functions: not libpfm4")
endif()
list(JOIN api "\n" api_text)
file(WRITE ${WORK}/api.txt "${api_text}\n")
run("localizing" ${OBJCOPY} --keep-global-symbols=${WORK}/api.txt ${WORK}/pfm_merged.o
    ${WORK}/libpfm_pic.o)
file(REMOVE ${OUT})
run("ar" ${AR} rcs ${OUT} ${WORK}/libpfm_pic.o)
file(REMOVE ${WORK}/pfm_all.o ${WORK}/pfm_renamed.o ${WORK}/pfm_merged.o ${WORK}/libpfm_pic.o)
