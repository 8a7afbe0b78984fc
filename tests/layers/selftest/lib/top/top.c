/* top.c: uses mid and low: allowed; names component a's function: private to comp/a. */
#include "mid.h"
int a_secret(void);
int top_entry(void) { return mid_work() + low_value + a_secret(); }
