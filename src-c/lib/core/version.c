/* version.c: the release of this library (papi-compat), kept apart from the PAPI API
 * level it implements (PAPI_VERSION in papi.h): the build passes PAPI_COMPAT_VERSION
 * from the project version in CMakeLists.txt, so there is one place to change it. */
#include "papi.h"

#ifndef PAPI_COMPAT_VERSION
#error "PAPI_COMPAT_VERSION must come from the build (CMakeLists.txt project version)"
#endif

const char *PAPI_compat_version(void)
{
    return PAPI_COMPAT_VERSION;
}
