/* cupti_api.h: the few types, constants, activity records and calls of NVIDIA's CUPTI
 * (CUDA Profiling Tools Interface) that the GPU activity layer uses, declared from CUPTI's
 * documented C API; no CUDA header is needed or copied, so the project builds where no
 * CUDA toolkit is installed. libcupti is never linked: cupti_loader.c finds these names
 * with dlsym and calls them through pointers of these types, and the test double
 * (tests/gpu_activity/cupti_double.c) defines them, so the compiler checks the double
 * against the same signatures.
 *
 * Records. CUPTI hands activity records of a versioned layout, by CUPTI's release notes:
 * CUDA 12.x kernel 9, memcpy 5 and synchronization 1 until 12.8, memcpy 6 and
 * synchronization 2 from 12.8; CUDA 13.0 kernel 10 (13.2 kernel 11, 13.4 kernel 12);
 * memset 3 or 4. The versions checked below only append members, so one prefix
 * serves every version: the structures below are those prefixes, the members this layer
 * reads and the ones before them, at the offsets checked below against CUDA 13.0's header
 * (kernel 8, 9 and 10, memcpy 5 and 6, memset 3 and 4, synchronization 1 and 2 agree;
 * kernel 11 and 12 are not checked here). A record's size is never taken from these:
 * cuptiActivityGetNextRecord steps through a buffer. Records are 8-byte aligned. */
#ifndef PAPI_CUPTI_API_H
#define PAPI_CUPTI_API_H

#include <stddef.h>
#include <stdint.h>

typedef int CUptiResult; /* an enum in CUPTI: int-sized */
#define CUPTI_SUCCESS                                  0
#define CUPTI_ERROR_INVALID_PARAMETER                  1
#define CUPTI_ERROR_INVALID_DEVICE                     2
#define CUPTI_ERROR_MAX_LIMIT_REACHED                  12 /* no more records in a buffer */
#define CUPTI_ERROR_NOT_COMPATIBLE                     14
#define CUPTI_ERROR_NOT_INITIALIZED                    15
#define CUPTI_ERROR_INSUFFICIENT_PRIVILEGES            35
#define CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED 39 /* another tool subscribed */
#define CUPTI_ERROR_UNKNOWN                            999

/* Activity kinds (CUpti_ActivityKind). CONCURRENT_KERNEL records kernels without
 * serialising them (KERNEL, 3, would). */
typedef int CUpti_ActivityKind;
#define CUPTI_ACTIVITY_KIND_MEMCPY               1
#define CUPTI_ACTIVITY_KIND_MEMSET               2
#define CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL    10
#define CUPTI_ACTIVITY_KIND_SYNCHRONIZATION      38
#define CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION 39

/* A memcpy record's copyKind (CUpti_ActivityMemcpyKind): H host, D device, A CUDA
 * array, P peer (device to another device). */
#define CUPTI_MEMCPY_KIND_UNKNOWN 0
#define CUPTI_MEMCPY_KIND_HTOD    1
#define CUPTI_MEMCPY_KIND_DTOH    2
#define CUPTI_MEMCPY_KIND_HTOA    3
#define CUPTI_MEMCPY_KIND_ATOH    4
#define CUPTI_MEMCPY_KIND_ATOA    5
#define CUPTI_MEMCPY_KIND_ATOD    6
#define CUPTI_MEMCPY_KIND_DTOA    7
#define CUPTI_MEMCPY_KIND_DTOD    8
#define CUPTI_MEMCPY_KIND_HTOH    9
#define CUPTI_MEMCPY_KIND_PTOP    10
#define CUPTI_MEMCPY_KINDS        11

/* A synchronization record's type (CUpti_ActivitySynchronizationType). */
#define CUPTI_SYNC_UNKNOWN             0
#define CUPTI_SYNC_EVENT_SYNCHRONIZE   1
#define CUPTI_SYNC_STREAM_WAIT_EVENT   2
#define CUPTI_SYNC_STREAM_SYNCHRONIZE  3
#define CUPTI_SYNC_CONTEXT_SYNCHRONIZE 4
#define CUPTI_SYNC_TYPES               5

/* cuptiActivityFlushAll's flag: deliver buffers still being filled too. */
#define CUPTI_ACTIVITY_FLAG_FLUSH_FORCED 1u

/* The start of every record. */
typedef struct {
    CUpti_ActivityKind kind;
} cupti_record_head;

/* A kernel (kinds 3 and 10). Times are nanoseconds of CUPTI's clock (or of the
 * timestamp callback's, cuptiActivityRegisterTimestampCallback). name is CUPTI's
 * (mangled) and lives as long as the module that holds the kernel. */
typedef struct {
    CUpti_ActivityKind kind;
    uint8_t cache_config;
    uint8_t shared_memory_config;
    uint16_t registers_per_thread;
    int32_t partitioned_cache_requested;
    int32_t partitioned_cache_executed;
    uint64_t start;
    uint64_t end;
    uint64_t completed;
    uint32_t device_id;
    uint32_t context_id;
    uint32_t stream_id;
    int32_t grid_x, grid_y, grid_z;
    int32_t block_x, block_y, block_z;
    int32_t static_shared_memory;
    int32_t dynamic_shared_memory;
    uint32_t local_memory_per_thread;
    uint32_t local_memory_total;
    uint32_t correlation_id;
    int64_t grid_id;
    const char *name;
} cupti_kernel_record;

/* A memory copy (kind 1). */
typedef struct {
    CUpti_ActivityKind kind;
    uint8_t copy_kind; /* CUPTI_MEMCPY_KIND_* */
    uint8_t src_kind;
    uint8_t dst_kind;
    uint8_t flags;
    uint64_t bytes;
    uint64_t start;
    uint64_t end;
    uint32_t device_id;
    uint32_t context_id;
    uint32_t stream_id;
    uint32_t correlation_id;
} cupti_memcpy_record;

/* A memory set (kind 2). */
typedef struct {
    CUpti_ActivityKind kind;
    uint32_t value;
    uint64_t bytes;
    uint64_t start;
    uint64_t end;
    uint32_t device_id;
    uint32_t context_id;
    uint32_t stream_id;
    uint32_t correlation_id;
} cupti_memset_record;

/* A host thread's wait for the device (kind 38): no device member; the context's. */
typedef struct {
    CUpti_ActivityKind kind;
    int32_t type; /* CUPTI_SYNC_* */
    uint64_t start;
    uint64_t end;
    uint32_t correlation_id;
    uint32_t context_id;
    uint32_t stream_id;
    uint32_t cuda_event_id;
} cupti_sync_record;

/* The link CUPTI writes when a thread launches work (an API call with a correlation id)
 * while an external id of the kind is pushed (kind 39, CUpti_ActivityExternalCorrelation):
 * the innermost id the thread pushed. Kinds of CUpti_ExternalCorrelationKind: CUSTOM0 is
 * the first a tool may use as it likes. */
#define CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0 3
typedef struct {
    CUpti_ActivityKind kind;
    uint32_t external_kind;
    uint64_t external_id;
    uint32_t correlation_id;
    uint32_t reserved;
} cupti_external_correlation_record;
_Static_assert(sizeof(cupti_external_correlation_record) == 24, "external correlation size");

/* The offsets CUDA 13.0's header gives these members (CUDA 12's deprecated versions the
 * same): a wrong member here would read another field without a word. */
_Static_assert(offsetof(cupti_kernel_record, start) == 16, "kernel start");
_Static_assert(offsetof(cupti_kernel_record, device_id) == 40, "kernel deviceId");
_Static_assert(offsetof(cupti_kernel_record, stream_id) == 48, "kernel streamId");
_Static_assert(offsetof(cupti_kernel_record, grid_x) == 52, "kernel gridX");
_Static_assert(offsetof(cupti_kernel_record, block_x) == 64, "kernel blockX");
_Static_assert(offsetof(cupti_kernel_record, correlation_id) == 92, "kernel correlationId");
_Static_assert(offsetof(cupti_kernel_record, name) == 104, "kernel name");
_Static_assert(offsetof(cupti_memcpy_record, bytes) == 8, "memcpy bytes");
_Static_assert(offsetof(cupti_memcpy_record, start) == 16, "memcpy start");
_Static_assert(offsetof(cupti_memcpy_record, device_id) == 32, "memcpy deviceId");
_Static_assert(offsetof(cupti_memcpy_record, stream_id) == 40, "memcpy streamId");
_Static_assert(offsetof(cupti_memset_record, bytes) == 8, "memset bytes");
_Static_assert(offsetof(cupti_memset_record, device_id) == 32, "memset deviceId");
_Static_assert(offsetof(cupti_memset_record, stream_id) == 40, "memset streamId");
_Static_assert(offsetof(cupti_sync_record, start) == 8, "sync start");
_Static_assert(offsetof(cupti_sync_record, stream_id) == 32, "sync streamId");

/* What the double writes and CUPTI delivers: a record's size by version (the stride of
 * cuptiActivityGetNextRecord; only the double needs it). */
#define CUPTI_KERNEL10_SIZE 216
#define CUPTI_MEMCPY6_SIZE  96
#define CUPTI_MEMSET4_SIZE  88
#define CUPTI_SYNC2_SIZE    56

/* Versions (cuptiGetVersion): CUDA 12.0 is 19, up to 28 for 12.9 update 1; from CUDA
 * 13.0 the value reads xxyyzz (130000 is 13.0, 130001 13.0 update 1). */
#define CUPTI_VERSION_CUDA12_FIRST 19
#define CUPTI_VERSION_CUDA12_LAST  99 /* a later 12.x keeps 12's records */
#define CUPTI_VERSION_CUDA13_FIRST 130000
#define CUPTI_VERSION_CUDA13_LAST  139999

typedef struct CUctx_st *CUcontext;
typedef struct cupti_subscriber_st *CUpti_SubscriberHandle;
typedef void (*CUpti_CallbackFunc)(void *userdata, int domain, uint32_t cbid, const void *cbdata);

/* The buffer callbacks: CUPTI asks for an empty buffer (on the thread that launched the
 * work, or its own), then hands it back filled (validSize bytes of records). */
typedef void (*CUpti_BuffersCallbackRequestFunc)(uint8_t **buffer, size_t *size,
                                                 size_t *maxNumRecords);
typedef void (*CUpti_BuffersCallbackCompleteFunc)(CUcontext context, uint32_t streamId,
                                                  uint8_t *buffer, size_t size, size_t validSize);
typedef uint64_t (*CUpti_TimestampCallbackFunc)(void);

CUptiResult cuptiGetVersion(uint32_t *version);
CUptiResult cuptiGetResultString(CUptiResult result, const char **str);
CUptiResult cuptiSubscribe(CUpti_SubscriberHandle *subscriber, CUpti_CallbackFunc callback,
                           void *userdata);
CUptiResult cuptiUnsubscribe(CUpti_SubscriberHandle subscriber);
CUptiResult cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc funcBufferRequested,
                                           CUpti_BuffersCallbackCompleteFunc funcBufferCompleted);
CUptiResult cuptiActivityRegisterTimestampCallback(CUpti_TimestampCallbackFunc funcTimestamp);
CUptiResult cuptiActivityEnable(CUpti_ActivityKind kind);
CUptiResult cuptiActivityDisable(CUpti_ActivityKind kind);
CUptiResult cuptiActivityFlushAll(uint32_t flag);
CUptiResult cuptiActivityGetNextRecord(uint8_t *buffer, size_t validBufferSizeBytes,
                                       cupti_record_head **record);
CUptiResult cuptiActivityGetNumDroppedRecords(CUcontext context, uint32_t streamId,
                                              size_t *dropped);
CUptiResult cuptiGetTimestamp(uint64_t *timestamp);
/* The calling thread's stack of external ids of a kind (CUpti_ExternalCorrelationKind). */
CUptiResult cuptiActivityPushExternalCorrelationId(uint32_t kind, uint64_t id);
CUptiResult cuptiActivityPopExternalCorrelationId(uint32_t kind, uint64_t *lastId);

/* The callback API's resource domain: a subscriber's callback told of each context made
 * (on the thread making it, before its first use) and of each about to be destroyed. */
#define CUPTI_CB_DOMAIN_RESOURCE                     3
#define CUPTI_CBID_RESOURCE_CONTEXT_CREATED          1
#define CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING 2
/* cbdata of a resource callback (resourceHandle is a union of handles: a stream's). */
typedef struct {
    CUcontext context;
    void *resourceHandle;
    void *resourceDescriptor;
} CUpti_ResourceData;
CUptiResult cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle subscriber, int domain,
                                uint32_t cbid);
CUptiResult cuptiGetDeviceId(CUcontext context, uint32_t *deviceId);

#endif
