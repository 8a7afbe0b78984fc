/* ompt_names_work.c: the second compilation unit of ompt_names.c, with its region. */
#include <omp.h>

int work_in_second_unit(void);
const int names_work_line = 11;

int work_in_second_unit(void)
{
    int sum = 0;
    /* the directive below is on names_work_line */
#pragma omp parallel num_threads(2) reduction(+ : sum)
    sum += omp_get_thread_num();
    return sum;
}
