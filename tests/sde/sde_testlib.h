/* sde_testlib.h: a library that exports software-defined events of every kind under
 * the name "sdetest" (sde_testlib.c), for the tests that count them through PAPI. */
#ifndef SDE_TESTLIB_H
#define SDE_TESTLIB_H

#ifdef __cplusplus
extern "C" {
#endif

/* Registers everything (sdetest::...); 0 on success, else the failing call's code. */
int sdetest_setup(void);
/* n rounds of work; round i (0-based, counted over every call since setup):
 * REG_LL += 1, CREATED += 2, CB grows by 6 (a callback of 2 * a variable += 3),
 * REG_DBL += 0.5, LEVEL (instant, created) += 1, REG_INT (instant) = rounds so far,
 * LAT records i, KEYS gets the key i % 3. */
void sdetest_work(int n);
/* papi_sde_shutdown of the library's handle; its code. */
int sdetest_shutdown(void);

#ifdef __cplusplus
}
#endif

#endif
