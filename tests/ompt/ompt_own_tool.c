/* ompt_own_tool.c: a program with an OMPT tool of its own (its own ompt_start_tool), for
 * check_ompt.py: with the project's tool named in OMP_TOOL_LIBRARIES or not, the program's
 * tool must still see its 3 parallel regions and the program run as it does alone. */
#include <omp.h>
#include <stdio.h>

#include "ompt_api.h"

static int regions_seen;

static void count_region(ompt_data_t *encountering_task_data, const ompt_frame_t *frame,
                         ompt_data_t *parallel_data, unsigned int requested, int flags,
                         const void *codeptr_ra)
{
    (void)encountering_task_data, (void)frame, (void)parallel_data, (void)requested, (void)flags,
        (void)codeptr_ra;
    __atomic_add_fetch(&regions_seen, 1, __ATOMIC_RELAXED);
}

static int own_initialize(ompt_function_lookup_t lookup, int device, ompt_data_t *data)
{
    (void)device, (void)data;
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    return set &&
           set(ompt_callback_parallel_begin, (ompt_callback_t)count_region) != ompt_set_never;
}

static void own_finalize(ompt_data_t *data)
{
    (void)data;
    printf("own tool: %d parallel regions\n", regions_seen);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version);
ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
    static ompt_start_tool_result_t result = {own_initialize, own_finalize, {0}};
    (void)omp_version, (void)runtime_version;
    return &result;
}

int main(void)
{
    /* Atomic: the runtime's join orders these for the program, but not visibly to TSan
     * (Debian's libomp is not instrumented: the TSan lane). */
    int sum = 0;
    for (int i = 0; i < 3; i++) {
#pragma omp parallel num_threads(2)
        __atomic_add_fetch(&sum, 1, __ATOMIC_RELAXED);
    }
    int total = __atomic_load_n(&sum, __ATOMIC_RELAXED);
    printf("threads summed: %d\n", total);
    return total == 6 ? 0 : 1;
}
