/* ompt_fork.c: fork after OpenMP started, for the OMPT tool (check_ompt.py, case fork):
 * the parent runs a region of 2 threads, forks, the child runs a region of its own and
 * exits; the parent runs one more region. The child inherits the tool's sums: it must
 * not report them again (one line says so); the parent's file has its 2 regions only. */
#include <omp.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ompt_sleep.h"

int main(void)
{
#pragma omp parallel num_threads(2)
    sleep_ms(UNIT_MS / 5);
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
#pragma omp parallel num_threads(2)
        sleep_ms(UNIT_MS / 5);
        return 0;
    }
    int status = 0;
    if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0) {
        fprintf(stderr, "ompt_fork: the child failed (status %d)\n", status);
        return 1;
    }
#pragma omp parallel num_threads(2)
    sleep_ms(UNIT_MS / 5);
    printf("{\"child\": %ld}\n", (long)child);
    return 0;
}
