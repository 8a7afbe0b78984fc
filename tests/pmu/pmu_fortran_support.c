/* pmu_fortran_support.c: C helpers for the Fortran hardware tests (bind(C)): the loop
 * of known instruction count, whose length Fortran code cannot promise. */
#include "pmu_hw.h"

void pmu_loop_c(long n);
void pmu_loop_c(long n)
{
    pmu_loop(n);
}
