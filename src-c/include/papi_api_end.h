/* papi_api_end.h: closes what papi_api_begin.h opened (visibility, C linkage). */
#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
