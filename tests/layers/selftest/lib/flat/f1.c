/* f1.c: calls f2 (and f2 calls f1: a cycle in an acyclic folder). */
#include "f1.h"
#include "f2.h"
int f1_fn(void) { return f2_fn(); }
