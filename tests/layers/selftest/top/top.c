/* top.c: uses mid and low: allowed. */
#include "mid.h"
int top_entry(void) { return mid_work() + low_value; }
