# At install time (cmake/PapiModulefiles.cmake): PAPI_MODULE_PREFIX as a Tcl and as a Lua
# string literal, quotes included. Any character may be in a directory name; unquoted, a
# '[' ran a Tcl command and a '"' or '\' broke the file. Tcl, inside "...": a backslash
# before each of \ $ [ ] " (braces and spaces are plain there). Lua, inside "...": a
# backslash before \ and ", \n for a newline. relocate-modulefiles.sh quotes alike.
string(REPLACE "\\" "\\\\" tcl "${PAPI_MODULE_PREFIX}")
foreach(c "$" "[" "]" "\"")
  string(REPLACE "${c}" "\\${c}" tcl "${tcl}")
endforeach()
set(PAPI_MODULE_PREFIX_TCL "\"${tcl}\"")
string(REPLACE "\\" "\\\\" lua "${PAPI_MODULE_PREFIX}")
string(REPLACE "\"" "\\\"" lua "${lua}")
string(REPLACE "\n" "\\n" lua "${lua}")
set(PAPI_MODULE_PREFIX_LUA "\"${lua}\"")
