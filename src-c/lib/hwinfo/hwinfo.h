/* hwinfo.h: what the library's shutdown asks of the hardware description. */
#ifndef HWINFO_H
#define HWINFO_H

#include "papi_globals.h"

PAPI_INTERNAL void hwinfo_shutdown(void);
PAPI_INTERNAL void sysinfo_shutdown(void);

#endif
