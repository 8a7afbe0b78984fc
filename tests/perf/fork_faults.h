/* fork_faults.h: a forked child's minor page faults at its entry (issue 28, 6), for the
 * x86 and arm64 fork-cost tests: getrusage in the child counts from its birth, so it
 * sees what fork() and the atfork handlers cost it. */
#ifndef FORK_FAULTS_H
#define FORK_FAULTS_H

#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define FORKS 9

/* Minor faults of a child at its entry (getrusage in the child counts from its birth). */
static inline long child_entry_faults(void)
{
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        long f = ru.ru_minflt;
        ssize_t w = write(fd[1], &f, sizeof f);
        _exit(w == (ssize_t)sizeof f ? 0 : 1);
    }
    long f = -1;
    if (pid < 0 || read(fd[0], &f, sizeof f) != (ssize_t)sizeof f)
        f = -1;
    int st;
    if (pid > 0)
        waitpid(pid, &st, 0);
    close(fd[0]);
    close(fd[1]);
    return f;
}

static inline long min_faults(void)
{
    long best = -1;
    for (int i = 0; i < FORKS; i++) {
        long f = child_entry_faults();
        if (f >= 0 && (best < 0 || f < best))
            best = f;
    }
    return best;
}

#endif
