/* ompt_own_tool.c: a program with an OMPT tool of its own (ompt_own_tool.h), for
 * check_ompt.py: with the project's tool named in OMP_TOOL_LIBRARIES or not, the program's
 * tool must still see its 3 parallel regions and the program run as it does alone. */
#include <omp.h>
#include <stdio.h>

#include "ompt_own_tool.h"

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
