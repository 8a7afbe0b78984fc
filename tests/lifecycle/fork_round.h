/* fork_round.h: one round of a lifecycle test in a forked child, so that a round the
 * library kills (a signal meeting its default action) is counted, not fatal to the test. */
#ifndef FORK_ROUND_H
#define FORK_ROUND_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Run child(k) in a new process, which must not return (it calls exit or _exit); its wait
 * status, or -1 when the child could not be made or waited for (said on stderr). */
static inline int fork_round(void (*child)(int), int k)
{
    fflush(NULL); /* nothing buffered is written twice */
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "fork: %s\n", strerror(errno));
        return -1;
    }
    if (pid == 0)
        child(k);
    int st = 0;
    if (waitpid(pid, &st, 0) != pid) {
        fprintf(stderr, "waitpid: %s\n", strerror(errno));
        return -1;
    }
    return st;
}

#endif
