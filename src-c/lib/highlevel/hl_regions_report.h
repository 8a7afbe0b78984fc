/* hl_regions_report.h: the region report's writer (hl_regions_report.c). Not installed. */
#ifndef HL_REGIONS_REPORT_H
#define HL_REGIONS_REPORT_H

#include "papi_globals.h"

/* Write papi_hl_output/rank_XXXXXX.json (and the PAPI_REPORT=1 summary when asked). */
PAPI_INTERNAL int hlr_write_report(int summary);

#endif
