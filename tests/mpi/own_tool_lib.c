/* own_tool_lib.c: an OMPT tool library of the user's (ompt_own_tool.h), named in
 * OMP_TOOL_LIBRARIES ahead of the project's tool (check_own_tool.py). */
#include "ompt_own_tool.h"
