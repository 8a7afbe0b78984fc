/* gomp_mutex.c: mutual exclusion under the interposer (README.md): critical sections
 * (the unnamed one and each named one by its libgomp pointer), gcc's atomic fallback
 * lock, and the program's omp_*_lock calls, each as libomp reports them: mutex_acquire
 * before the real call, mutex_acquired after it, mutex_released after the release, and
 * lock_init at omp_init_lock (the tool files a lock by that site). A nest lock's
 * acquisition is its first set by its owner: the thread keeps the nest locks it holds
 * and their counts (thread-local), a set by the owner again is no new acquisition.
 * gfortran's lock routines (omp_set_lock_ ...) likewise. */
#include <stdint.h>

#include "gomp_abi.h"
#include "gomp_runtime.h"

#define UNNAMED_CRITICAL_ID 2 /* a wait id no object has (the named ones: their address) */
#define ATOMIC_ID           3

static void acquire(ompt_mutex_t kind, ompt_wait_id_t id, const void *codeptr)
{
    GOMP_CALL(ompt_callback_mutex_acquire, ompt_callback_mutex_acquire_t, kind, 0, 0, id, codeptr);
}

static void acquired(ompt_mutex_t kind, ompt_wait_id_t id, const void *codeptr)
{
    GOMP_CALL(ompt_callback_mutex_acquired, ompt_callback_mutex_t, kind, id, codeptr);
}

static void released(ompt_mutex_t kind, ompt_wait_id_t id, const void *codeptr)
{
    GOMP_CALL(ompt_callback_mutex_released, ompt_callback_mutex_t, kind, id, codeptr);
}

/* A blocking take of a mutex: real(arg) between acquire and acquired. */
#define TAKE(kind, id, real_call)                      \
    do {                                               \
        const void *ra_ = __builtin_return_address(0); \
        if (!gomp_tool_on()) {                         \
            real_call;                                 \
            return;                                    \
        }                                              \
        gomp_self();                                   \
        acquire(kind, id, ra_);                        \
        real_call;                                     \
        acquired(kind, id, ra_);                       \
    } while (0)

#define GIVE(kind, id, real_call)                            \
    do {                                                     \
        real_call;                                           \
        if (gomp_tool_on())                                  \
            released(kind, id, __builtin_return_address(0)); \
    } while (0)

void GOMP_critical_start(void)
{
    TAKE(ompt_mutex_critical, UNNAMED_CRITICAL_ID, GOMP_REAL(GOMP_critical_start)());
}

void GOMP_critical_end(void)
{
    GIVE(ompt_mutex_critical, UNNAMED_CRITICAL_ID, GOMP_REAL(GOMP_critical_end)());
}

void GOMP_critical_name_start(void **pptr)
{
    TAKE(ompt_mutex_critical, (uintptr_t)pptr, GOMP_REAL(GOMP_critical_name_start)(pptr));
}

void GOMP_critical_name_end(void **pptr)
{
    GIVE(ompt_mutex_critical, (uintptr_t)pptr, GOMP_REAL(GOMP_critical_name_end)(pptr));
}

void GOMP_atomic_start(void)
{
    TAKE(ompt_mutex_atomic, ATOMIC_ID, GOMP_REAL(GOMP_atomic_start)());
}

void GOMP_atomic_end(void)
{
    GIVE(ompt_mutex_atomic, ATOMIC_ID, GOMP_REAL(GOMP_atomic_end)());
}

/* The thread's count of nest lock lock after a change by delta (a new entry from 0). */
static int nest_count(struct gomp_thread *t, const void *lock, int delta)
{
    int free_slot = -1;
    for (int i = 0; i < GOMP_NEST_MAX; i++) {
        if (t->nest[i].lock == lock) {
            t->nest[i].count += delta;
            int n = t->nest[i].count;
            if (n <= 0)
                t->nest[i].lock = NULL;
            return n;
        }
        if (!t->nest[i].lock && free_slot < 0)
            free_slot = i;
    }
    if (delta > 0 && free_slot >= 0)
        t->nest[free_slot].lock = lock, t->nest[free_slot].count = delta;
    return delta; /* past the bound: every set is an acquisition */
}

/* The lock routines, each under its C name (suffix empty) and gfortran's (suffix _, the
 * lock variable's address: libgomp's Fortran routines call its C ones internally, unseen). */
#define GOMP_LOCKS(suffix)                                                                        \
    void omp_init_lock##suffix(gomp_lock *lock)                                                   \
    {                                                                                             \
        GOMP_REAL(omp_init_lock##suffix)(lock);                                                   \
        if (gomp_tool_on())                                                                       \
            GOMP_CALL(ompt_callback_lock_init, ompt_callback_mutex_acquire_t, ompt_mutex_lock, 0, \
                      0, (uintptr_t)lock, __builtin_return_address(0));                           \
    }                                                                                             \
    void omp_init_nest_lock##suffix(gomp_lock *lock)                                              \
    {                                                                                             \
        GOMP_REAL(omp_init_nest_lock##suffix)(lock);                                              \
        if (gomp_tool_on())                                                                       \
            GOMP_CALL(ompt_callback_lock_init, ompt_callback_mutex_acquire_t,                     \
                      ompt_mutex_nest_lock, 0, 0, (uintptr_t)lock, __builtin_return_address(0));  \
    }                                                                                             \
    void omp_set_lock##suffix(gomp_lock *lock)                                                    \
    {                                                                                             \
        TAKE(ompt_mutex_lock, (uintptr_t)lock, GOMP_REAL(omp_set_lock##suffix)(lock));            \
    }                                                                                             \
    void omp_unset_lock##suffix(gomp_lock *lock)                                                  \
    {                                                                                             \
        GIVE(ompt_mutex_lock, (uintptr_t)lock, GOMP_REAL(omp_unset_lock##suffix)(lock));          \
    }                                                                                             \
    int omp_test_lock##suffix(gomp_lock *lock)                                                    \
    {                                                                                             \
        const void *ra = __builtin_return_address(0);                                             \
        if (!gomp_tool_on())                                                                      \
            return GOMP_REAL(omp_test_lock##suffix)(lock);                                        \
        gomp_self();                                                                              \
        acquire(ompt_mutex_test_lock, (uintptr_t)lock, ra);                                       \
        int got = GOMP_REAL(omp_test_lock##suffix)(lock);                                         \
        if (got)                                                                                  \
            acquired(ompt_mutex_test_lock, (uintptr_t)lock, ra);                                  \
        return got;                                                                               \
    }                                                                                             \
    void omp_set_nest_lock##suffix(gomp_lock *lock)                                               \
    {                                                                                             \
        const void *ra = __builtin_return_address(0);                                             \
        if (!gomp_tool_on()) {                                                                    \
            GOMP_REAL(omp_set_nest_lock##suffix)(lock);                                           \
            return;                                                                               \
        }                                                                                         \
        struct gomp_thread *t = gomp_self();                                                      \
        acquire(ompt_mutex_nest_lock, (uintptr_t)lock, ra);                                       \
        GOMP_REAL(omp_set_nest_lock##suffix)(lock);                                               \
        if (nest_count(t, lock, 1) == 1)                                                          \
            acquired(ompt_mutex_nest_lock, (uintptr_t)lock, ra);                                  \
    }                                                                                             \
    int omp_test_nest_lock##suffix(gomp_lock *lock)                                               \
    {                                                                                             \
        const void *ra = __builtin_return_address(0);                                             \
        if (!gomp_tool_on())                                                                      \
            return GOMP_REAL(omp_test_nest_lock##suffix)(lock);                                   \
        struct gomp_thread *t = gomp_self();                                                      \
        acquire(ompt_mutex_test_nest_lock, (uintptr_t)lock, ra);                                  \
        int n = GOMP_REAL(omp_test_nest_lock##suffix)(lock);                                      \
        if (n > 0 && nest_count(t, lock, 1) == 1)                                                 \
            acquired(ompt_mutex_test_nest_lock, (uintptr_t)lock, ra);                             \
        return n;                                                                                 \
    }                                                                                             \
    void omp_unset_nest_lock##suffix(gomp_lock *lock)                                             \
    {                                                                                             \
        GOMP_REAL(omp_unset_nest_lock##suffix)(lock);                                             \
        if (gomp_tool_on() && nest_count(gomp_self(), lock, -1) == 0)                             \
            released(ompt_mutex_nest_lock, (uintptr_t)lock, __builtin_return_address(0));         \
    }

GOMP_LOCKS()
GOMP_LOCKS(_)
