/* a.c: component a. */
#include "secret.h"
int a_secret(void) { return 7; }
