/* ompt_own_tool.h: an OMPT tool of a program's own (its own ompt_start_tool, exported),
 * which counts the parallel regions it sees and prints their number at the runtime's
 * end: a runtime starts this one and never the one OMP_TOOL_LIBRARIES names
 * (ompt_own_tool.c, tests/mpi/mpi_own_tool.c). Include it in one file of the program. */
#ifndef OMPT_OWN_TOOL_H
#define OMPT_OWN_TOOL_H

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
    printf("own tool: %d parallel regions\n", __atomic_load_n(&regions_seen, __ATOMIC_RELAXED));
    fflush(stdout);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version);
ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
    static ompt_start_tool_result_t result = {own_initialize, own_finalize, {0}};
    (void)omp_version, (void)runtime_version;
    return &result;
}

#endif
