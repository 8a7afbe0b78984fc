/* sysdetect.h: what the Fortran API (fpapi/papif_sysdetect.c, linked into libpapi) needs
 * beyond the public calls: Fortran names a device type by its PAPI_DEV_TYPE_ID__* index,
 * as it cannot hold a C pointer. */
#ifndef SYSDETECT_H
#define SYSDETECT_H

/* The handle of device type id (PAPI_DEV_TYPE_ID__*), NULL if there is none. */
__attribute__((visibility("hidden"))) void *sysdetect_type_handle(int id);

#endif
