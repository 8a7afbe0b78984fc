/* f2.c: calls f1 back. */
#include "f1.h"
#include "f2.h"
int f2_fn(void) { return f1_fn(); }
