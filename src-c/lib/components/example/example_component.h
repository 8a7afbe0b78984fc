/* example_component.h: the template component's "device" (example_component.c), which
 * its test writes. A real component reads a file, a system call or a vendor library
 * instead, and has no header of its own for anyone else. */
#ifndef PAPI_EXAMPLE_COMPONENT_H
#define PAPI_EXAMPLE_COMPONENT_H

#include <stdint.h>

#include "papi_sdk.h"

enum { EXAMPLE_COUNTER, EXAMPLE_COUNTER32, EXAMPLE_TEMPERATURE, EXAMPLE_NREGS };

/* A register that holds this did not answer: its read fails, with the reason. */
#define EXAMPLE_NO_ANSWER UINT64_MAX

extern uint64_t example_registers[EXAMPLE_NREGS] PAPI_INTERNAL;

#endif
