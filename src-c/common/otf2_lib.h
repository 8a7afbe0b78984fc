/* otf2_lib.h: libotf2, loaded at run time (otf2_lib.c): its functions the trace writer
 * uses, as one table, so libpapi and the MPI wrapper never link it. Only with libotf2's
 * headers at build time (PAPI_HAVE_OTF2). Not installed. */
#ifndef OTF2_LIB_H
#define OTF2_LIB_H

#ifdef PAPI_HAVE_OTF2
#include <stddef.h>
#include <otf2/otf2.h>

#include "trace_records.h" /* TW_HIDDEN */

#define OTF2_LIB_FUNCS(X)                        \
    X(OTF2_Archive_Open)                         \
    X(OTF2_Archive_SetFlushCallbacks)            \
    X(OTF2_Archive_SetSerialCollectiveCallbacks) \
    X(OTF2_Archive_SetCollectiveCallbacks)       \
    X(OTF2_Reader_SetCollectiveCallbacks)        \
    X(OTF2_Archive_SetCreator)                   \
    X(OTF2_Archive_SetDescription)               \
    X(OTF2_Archive_SetProperty)                  \
    X(OTF2_Archive_OpenEvtFiles)                 \
    X(OTF2_Archive_GetEvtWriter)                 \
    X(OTF2_Archive_CloseEvtWriter)               \
    X(OTF2_Archive_CloseEvtFiles)                \
    X(OTF2_Archive_OpenDefFiles)                 \
    X(OTF2_Archive_GetDefWriter)                 \
    X(OTF2_Archive_CloseDefWriter)               \
    X(OTF2_Archive_CloseDefFiles)                \
    X(OTF2_Archive_GetGlobalDefWriter)           \
    X(OTF2_Archive_Close)                        \
    X(OTF2_EvtWriter_Enter)                      \
    X(OTF2_EvtWriter_Leave)                      \
    X(OTF2_EvtWriter_MpiSend)                    \
    X(OTF2_EvtWriter_MpiRecv)                    \
    X(OTF2_EvtWriter_MpiCollectiveBegin)         \
    X(OTF2_EvtWriter_MpiCollectiveEnd)           \
    X(OTF2_EvtWriter_Metric)                     \
    X(OTF2_GlobalDefWriter_WriteClockProperties) \
    X(OTF2_GlobalDefWriter_WriteString)          \
    X(OTF2_GlobalDefWriter_WriteSystemTreeNode)  \
    X(OTF2_GlobalDefWriter_WriteLocationGroup)   \
    X(OTF2_GlobalDefWriter_WriteLocation)        \
    X(OTF2_GlobalDefWriter_WriteRegion)          \
    X(OTF2_GlobalDefWriter_WriteGroup)           \
    X(OTF2_GlobalDefWriter_WriteComm)            \
    X(OTF2_GlobalDefWriter_WriteMetricMember)    \
    X(OTF2_GlobalDefWriter_WriteMetricClass)

struct otf2_lib {
#define OTF2_LIB_DECLARE(f) __typeof__(f) *f;
    OTF2_LIB_FUNCS(OTF2_LIB_DECLARE)
#undef OTF2_LIB_DECLARE
};

/* The loaded table, or NULL with why (the library or one of its functions missing). */
TW_HIDDEN const struct otf2_lib *otf2_lib(char *why, size_t whylen);
#endif

#endif
