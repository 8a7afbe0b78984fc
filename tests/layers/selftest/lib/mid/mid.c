/* mid.c: includes a header its folder is denied, and calls up into top (a finding each). */
#include "mid.h"
#include "private.h"
#include "secret.h"
#include "comp.h"
int top_entry(void);
int mid_work(void) { return top_entry(); }
