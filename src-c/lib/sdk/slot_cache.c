/* slot_cache.c: the call guard's table of thread slots by thread pointer (call_guard.h).
 *
 * A file of its own so that its 512 bytes are laid out after the library's other state
 * (the objects are linked in the order of their paths): placed beside call_guard.c's
 * variables, it moved g_papi and its lock onto another page than the call guard's lock,
 * and a forked child, which writes all three inside fork(), took one page fault more
 * (tests/perf/arm64/pmu_fork_cost). */
#include "call_guard.h"

struct papi_call_slot *papi_slot_cache[PAPI_SLOT_CACHE];
