/* alarm_every.h: a SIGALRM handler run every us microseconds (ITIMER_REAL), for the tests
 * that file from a signal handler while the program runs; us 0 stops it and ignores the
 * signals still on their way. */
#ifndef PAPI_TEST_ALARM_EVERY_H
#define PAPI_TEST_ALARM_EVERY_H

#include <signal.h>
#include <string.h>
#include <sys/time.h>

static inline void alarm_every(void (*handler)(int), long us)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = us ? handler : SIG_IGN;
    struct itimerval it = {{0, us}, {0, us}};
    if (us)
        sigaction(SIGALRM, &sa, NULL);
    setitimer(ITIMER_REAL, &it, NULL);
    if (!us)
        sigaction(SIGALRM, &sa, NULL);
}

#endif
