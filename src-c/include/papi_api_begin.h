/* papi_api_begin.h: opens the declarations of a public header of libpapi; the header
 * closes them with papi_api_end.h. C linkage for C++ callers, and default visibility:
 * the library is built with hidden symbols, so what a public header declares between
 * the two is its exported API, nothing else is. Installed beside papi.h; included
 * inside the headers only, never on its own (no guard: it opens once per header). */
#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif
