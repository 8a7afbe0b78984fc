/* ompt_sites.c: one directive forked from three inlined calls (issue 69 item 4), and a
 * region after a statement, for check_report_omp.py's case sites: built -O2 -g by clang
 * and by gcc. The three forks of scale() are three regions of one name, told apart by
 * their sites (the inlined call's line in main); every region's line is its directive's
 * (gcc -O2 gives the call forking main's region the line of the statement before it).
 * Two directives on one line (a macro's) are two regions of one name and no inlined
 * call: their sites are their code's offsets in the program. */
#include <omp.h>
#include <stdio.h>

static double v[64];
static volatile double sink;
static int calls[3], ncalls;
static const int scale_line = 21, main_line = 35, twice_line = 39;

#define FORK _Pragma("omp parallel num_threads(2)") v[omp_get_thread_num()] += 1;

static inline __attribute__((always_inline)) void scale(double f, int line)
{
    calls[ncalls++] = line;
#pragma omp parallel num_threads(2)
    v[omp_get_thread_num()] *= f;
}

int main(void)
{
    for (int i = 0; i < 64; i++)
        v[i] = 1;
    scale(2.0, __LINE__);
    scale(3.0, __LINE__);
    scale(5.0, __LINE__);
    printf("{\"file\": \"ompt_sites.c\", \"scale_line\": %d, \"calls\": [%d, %d, %d], ", scale_line,
           calls[0], calls[1], calls[2]);
    sink = v[0];
#pragma omp parallel num_threads(2)
    {
        v[omp_get_thread_num()] += 1;
    }
    FORK FORK
    printf("\"main_line\": %d, \"twice_line\": %d, \"v0\": %g}\n", main_line, twice_line, v[0]);
    return v[0] == 33.0 ? 0 : 1;
}
