/* errors.c: error codes, their messages, the debug handler and the per-thread
 * "why" behind the last failure, kept whole whatever its length (PAPI_strerror_detail). */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi_globals.h"

static const char *const messages[PAPI_NUM_ERRORS] = {
    [0] = "No error",
    [-PAPI_EINVAL] = "Invalid argument",
    [-PAPI_ENOMEM] = "Insufficient memory",
    [-PAPI_ESYS] = "A system or C library call failed",
    [-PAPI_ECMP] = "Not supported by component",
    [-PAPI_ECLOST] = "Access to the counters was lost or interrupted",
    [-PAPI_EBUG] = "Internal error in the PAPI library",
    [-PAPI_ENOEVNT] = "Event does not exist",
    [-PAPI_ECNFLCT] = ("Event exists, but cannot be counted together with the other events "
                       "(counter resources)"),
    [-PAPI_ENOTRUN] = "EventSet is currently not running",
    [-PAPI_EISRUN] = "EventSet is currently counting",
    [-PAPI_ENOEVST] = "No such EventSet available",
    [-PAPI_ENOTPRESET] = "Event in argument is not a valid preset",
    [-PAPI_ENOCNTR] = "Hardware does not support performance counters",
    [-PAPI_EMISC] = "Unknown error code",
    [-PAPI_EPERM] = "Permission level does not permit operation",
    [-PAPI_ENOINIT] = "PAPI has not been initialized",
    [-PAPI_ENOCMP] = "Component index is not set",
    [-PAPI_ENOSUPP] = "Not supported",
    [-PAPI_ENOIMPL] = "Not implemented",
    [-PAPI_EBUF] = "Buffer size exceeded",
    [-PAPI_EINVAL_DOM] = "EventSet domain is not supported for the operation",
    [-PAPI_EATTR] = "Invalid or missing event attributes",
    [-PAPI_ECOUNT] = "Too many events or attributes",
    [-PAPI_ECOMBO] = "Bad combination of features",
    [-PAPI_ECMP_DISABLED] = "Component containing the event is disabled",
    [-PAPI_EDELAY_INIT] = "Delayed initialization component",
    [-PAPI_EMULPASS] = "Event exists, but needs several hardware passes",
};

/* The reason of this thread's last failure: in a fixed buffer when it fits (no allocation
 * on the common path, nor in a signal handler), else in a heap buffer that grows as needed
 * and is freed when the thread exits. */
static _Thread_local char small_detail[PAPI_HUGE_STR_LEN];
static _Thread_local char *big_detail;
static _Thread_local size_t big_cap;
static _Thread_local const char *last_detail = "";
static pthread_key_t big_key;
static pthread_once_t big_key_once = PTHREAD_ONCE_INIT;
static int big_key_made;

static void make_big_key(void)
{
    big_key_made = pthread_key_create(&big_key, free) == 0;
}

/* dlclose: one key per load would leak (a process has 1,024); the calling thread's
 * buffer goes too (other threads' are freed by the key's destructor no longer). */
void papi_errors_unload(void)
{
    if (big_key_made)
        pthread_key_delete(big_key);
    big_key_made = 0;
    free(big_detail);
    big_detail = NULL;
    big_cap = 0;
    last_detail = "";
}

/* Room for n bytes in big_detail, or 0 (then the reason is kept cut to the small one). */
static int grow_big(size_t n)
{
    if (n <= big_cap)
        return 1;
    char *p = realloc(big_detail, n);
    if (!p)
        return 0;
    big_detail = p;
    big_cap = n;
    pthread_once(&big_key_once, make_big_key);
    if (big_key_made)
        pthread_setspecific(big_key, p); /* freed at thread exit */
    return 1;
}

char *PAPI_strerror(int code)
{
    if (code > 0 || code <= -PAPI_NUM_ERRORS)
        return NULL;
    return (char *)messages[-code];
}

/* Default reporting for the verbose levels: one line on stderr with the detail. */
static void report(int code)
{
    const char *msg = PAPI_strerror(code);
    if (last_detail[0])
        fprintf(stderr, "PAPI Error: %s: %s\n", msg ? msg : "?", last_detail);
    else
        fprintf(stderr, "PAPI Error: %s\n", msg ? msg : "?");
}

int papi_error(int code, const char *fmt, ...)
{
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    int n = vsnprintf(small_detail, sizeof small_detail, fmt, ap);
    last_detail = small_detail;
    if (n >= (int)sizeof small_detail && grow_big((size_t)n + 1)) {
        vsnprintf(big_detail, (size_t)n + 1, fmt, again);
        last_detail = big_detail;
    }
    va_end(again);
    va_end(ap);
    if (code >= 0)
        return code;
    if (g_papi.debug_handler)
        g_papi.debug_handler(code);
    else if (g_papi.debug_level == PAPI_VERB_ECONT)
        report(code);
    else if (g_papi.debug_level == PAPI_VERB_ESTOP) {
        report(code);
        exit(code);
    }
    return code;
}

const char *papi_last_error_detail(void)
{
    return last_detail;
}

const char *PAPI_strerror_detail(void)
{
    return last_detail;
}

int papi_errno_to_papi(int err)
{
    switch (err) {
    case ENOENT:
    case EOPNOTSUPP:
        return PAPI_ENOEVNT;
    case EACCES:
    case EPERM:
        return PAPI_EPERM;
    case ENOMEM:
        return PAPI_ENOMEM;
    case EINVAL:
        return PAPI_EINVAL;
    case EBUSY:
    case ENOSPC:
        return PAPI_ECNFLCT;
    case ESRCH:
        return PAPI_EINVAL;
    default:
        return PAPI_ESYS;
    }
}

int PAPI_perror3(int code, char *destination, int length)
{
    const char *msg = PAPI_strerror(code);
    if (msg == NULL)
        return PAPI_EINVAL;
    if (destination == NULL) {
        fprintf(stderr, "%s\n", msg);
        return PAPI_OK;
    }
    if (length <= 0)
        return PAPI_EINVAL;
    snprintf(destination, (size_t)length, "%s", msg);
    return PAPI_OK;
}

/* 7.x: print msg, then the message of the last failure seen by this thread. */
void PAPI_perror1(const char *msg)
{
    const char *detail = last_detail[0] ? last_detail : "no error recorded";
    if (msg && msg[0])
        fprintf(stderr, "%s: %s\n", msg, detail);
    else
        fprintf(stderr, "%s\n", detail);
}

void(PAPI_perror)(const char *msg)
{
    PAPI_perror1(msg);
}

int papi_strcpy(char *dst, size_t size, const char *src)
{
    size_t n = strlen(src);
    if (size == 0)
        return 1;
    if (n >= size) {
        memcpy(dst, src, size - 1);
        dst[size - 1] = '\0';
        return 1;
    }
    memcpy(dst, src, n + 1);
    return 0;
}
