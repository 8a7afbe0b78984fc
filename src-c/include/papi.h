/* papi.h: the public C interface.
 *
 * One header for two generations of the API: the PAPI 3.5 surface (high-level
 * PAPI_flops / PAPI_start_counters, PAPI_get_substrate_info, the 3-argument
 * PAPI_perror) and the PAPI 5-7 superset (named events, components, rates, regions).
 * Numeric values of error codes, options, domains and presets equal PAPI's, because
 * users print and log them. Structures carry both generations' field names. */
#ifndef PAPI_H
#define PAPI_H

#include <signal.h>
#include <stddef.h>

#include "papiStdEventDefs.h"

#include "papi_api_begin.h"

/* ---- version ------------------------------------------------------------ */
#define PAPI_VERSION_NUMBER(maj, min, rev, inc) \
    (((maj) << 24) | ((min) << 16) | ((rev) << 8) | (inc))
#define PAPI_VERSION_MAJOR(x)       (((x) >> 24) & 0xff)
#define PAPI_VERSION_MINOR(x)       (((x) >> 16) & 0xff)
#define PAPI_VERSION_REVISION(x)    (((x) >> 8) & 0xff)
#define PAPI_VERSION_INCREMENT(x)   ((x) & 0xff)
#define PAPI_VERSION                PAPI_VERSION_NUMBER(7, 0, 0, 0)
#define PAPI_VER_CURRENT            (PAPI_VERSION & 0xffff0000)

/* ---- return codes ---------------------------------------------------------- */
#define PAPI_OK            0  /* no error */
#define PAPI_EINVAL       -1  /* invalid argument */
#define PAPI_ENOMEM       -2  /* insufficient memory */
#define PAPI_ESYS         -3  /* a system or C library call failed */
#define PAPI_ECMP         -4  /* not supported by the component */
#define PAPI_ESBSTR       -4  /* 3.x name of PAPI_ECMP */
#define PAPI_ECLOST       -5  /* access to the counters was lost */
#define PAPI_EBUG         -6  /* internal error */
#define PAPI_ENOEVNT      -7  /* event does not exist */
#define PAPI_ECNFLCT      -8  /* event exists but cannot be counted with the others */
#define PAPI_ENOTRUN      -9  /* event set is not running */
#define PAPI_EISRUN      -10  /* event set is running */
#define PAPI_ENOEVST     -11  /* no such event set */
#define PAPI_ENOTPRESET  -12  /* not a valid preset */
#define PAPI_ENOCNTR     -13  /* hardware does not support counters */
#define PAPI_EMISC       -14  /* unknown error */
#define PAPI_EPERM       -15  /* permission denied */
#define PAPI_ENOINIT     -16  /* library not initialised */
#define PAPI_ENOCMP      -17  /* component index not set */
#define PAPI_ENOSUPP     -18  /* not supported */
#define PAPI_ENOIMPL     -19  /* not implemented */
#define PAPI_EBUF        -20  /* buffer size exceeded */
#define PAPI_EINVAL_DOM  -21  /* domain not supported for the operation */
#define PAPI_EATTR       -22  /* invalid or missing event attributes */
#define PAPI_ECOUNT      -23  /* too many events or attributes */
#define PAPI_ECOMBO      -24  /* bad combination of features */
#define PAPI_ECMP_DISABLED -25 /* component containing the event is disabled */
#define PAPI_EDELAY_INIT -26  /* delayed initialisation component */
#define PAPI_EMULPASS    -27  /* event needs several hardware passes */
#define PAPI_NUM_ERRORS   28

/* ---- initialisation states -------------------------------------------------- */
#define PAPI_NOT_INITED          0
#define PAPI_LOW_LEVEL_INITED    1
#define PAPI_HIGH_LEVEL_INITED   2
#define PAPI_THREAD_LEVEL_INITED 4

#define PAPI_NULL  -1 /* placeholder for "no event set" */

/* ---- domains ---------------------------------------------------------------- */
#define PAPI_DOM_USER       0x1
#define PAPI_DOM_MIN        PAPI_DOM_USER
#define PAPI_DOM_KERNEL     0x2
#define PAPI_DOM_OTHER      0x4
#define PAPI_DOM_SUPERVISOR 0x8
#define PAPI_DOM_ALL        (PAPI_DOM_USER | PAPI_DOM_KERNEL | PAPI_DOM_OTHER | PAPI_DOM_SUPERVISOR)
#define PAPI_DOM_MAX        PAPI_DOM_ALL
#define PAPI_DOM_HWSPEC     0x80000000

/* ---- thread-specific storage and locks -------------------------------------- */
#define PAPI_USR1_TLS         0x0
#define PAPI_USR2_TLS         0x1
#define PAPI_TLS_HIGH_LEVEL   0x2
#define PAPI_NUM_TLS          0x3
#define PAPI_TLS_USR1         PAPI_USR1_TLS
#define PAPI_TLS_USR2         PAPI_USR2_TLS
#define PAPI_TLS_HL           PAPI_TLS_HIGH_LEVEL
#define PAPI_TLS_NUM          PAPI_NUM_TLS
#define PAPI_TLS_ALL_THREADS  0x10
/* PAPI 3.x/5.x name of PAPI_TLS_HIGH_LEVEL: a slot of the user's, like USR1 and USR2. */
#define PAPI_HIGH_LEVEL_TLS   PAPI_TLS_HIGH_LEVEL

#define PAPI_USR1_LOCK 0x0
#define PAPI_USR2_LOCK 0x1
#define PAPI_NUM_LOCK  0x2
#define PAPI_LOCK_USR1 PAPI_USR1_LOCK
#define PAPI_LOCK_USR2 PAPI_USR2_LOCK
#define PAPI_LOCK_NUM  PAPI_NUM_LOCK

/* ---- vendors ---------------------------------------------------------------- */
#define PAPI_VENDOR_UNKNOWN   0
#define PAPI_VENDOR_INTEL     1
#define PAPI_VENDOR_AMD       2
#define PAPI_VENDOR_IBM       3
#define PAPI_VENDOR_CRAY      4
#define PAPI_VENDOR_SUN       5
#define PAPI_VENDOR_FREESCALE 6
#define PAPI_VENDOR_ARM       7
#define PAPI_VENDOR_MIPS      8
#define PAPI_VENDOR_ARM_ARM       0x41
#define PAPI_VENDOR_ARM_BROADCOM  0x42
#define PAPI_VENDOR_ARM_CAVIUM    0x43
#define PAPI_VENDOR_ARM_FUJITSU   0x46
#define PAPI_VENDOR_ARM_HISILICON 0x48
#define PAPI_VENDOR_ARM_APM       0x50
#define PAPI_VENDOR_ARM_QUALCOMM  0x51

/* ---- granularities ---------------------------------------------------------- */
#define PAPI_GRN_THR     0x1
#define PAPI_GRN_MIN     PAPI_GRN_THR
#define PAPI_GRN_PROC    0x2
#define PAPI_GRN_PROCG   0x4
#define PAPI_GRN_SYS     0x8
#define PAPI_GRN_SYS_CPU 0x10
#define PAPI_GRN_MAX     PAPI_GRN_SYS_CPU

/* ---- event set states (bit flags) ------------------------------------------- */
#define PAPI_STOPPED      0x01
#define PAPI_RUNNING      0x02
#define PAPI_PAUSED       0x04
#define PAPI_NOT_INIT     0x08
#define PAPI_OVERFLOWING  0x10
#define PAPI_PROFILING    0x20
#define PAPI_MULTIPLEXING 0x40
#define PAPI_ATTACHED     0x80
#define PAPI_CPU_ATTACHED 0x100

/* ---- error reporting levels ------------------------------------------------- */
#define PAPI_QUIET      0
#define PAPI_VERB_ECONT 1
#define PAPI_VERB_ESTOP 2

/* ---- profiling and overflow flags ------------------------------------------- */
#define PAPI_PROFIL_POSIX     0x0
#define PAPI_PROFIL_RANDOM    0x1
#define PAPI_PROFIL_WEIGHTED  0x2
#define PAPI_PROFIL_COMPRESS  0x4
#define PAPI_PROFIL_BUCKET_16 0x8
#define PAPI_PROFIL_BUCKET_32 0x10
#define PAPI_PROFIL_BUCKET_64 0x20
#define PAPI_PROFIL_FORCE_SW  0x40
#define PAPI_PROFIL_DATA_EAR  0x80
#define PAPI_PROFIL_INST_EAR  0x100
#define PAPI_PROFIL_BUCKETS   (PAPI_PROFIL_BUCKET_16 | PAPI_PROFIL_BUCKET_32 | PAPI_PROFIL_BUCKET_64)

#define PAPI_OVERFLOW_FORCE_SW 0x40
#define PAPI_OVERFLOW_HARDWARE 0x80

#define PAPI_MULTIPLEX_DEFAULT  0x0
#define PAPI_MULTIPLEX_FORCE_SW 0x1

#define PAPI_INHERIT_ALL  1
#define PAPI_INHERIT_NONE 0

/* ---- options for PAPI_get_opt / PAPI_set_opt -------------------------------- */
#define PAPI_DETACH           1
#define PAPI_DEBUG            2
#define PAPI_MULTIPLEX        3
#define PAPI_DEFDOM           4
#define PAPI_DOMAIN           5
#define PAPI_DEFGRN           6
#define PAPI_GRANUL           7
#define PAPI_DEF_MPX_NS       8
#define PAPI_DEF_MPX_USEC     PAPI_DEF_MPX_NS /* 3.x name; the value is in microseconds there */
#define PAPI_EDGE_DETECT      9
#define PAPI_INVERT           10
#define PAPI_MAX_MPX_CTRS     11
#define PAPI_PROFIL           12
#define PAPI_PRELOAD          13
#define PAPI_CLOCKRATE        14
#define PAPI_MAX_HWCTRS       15
#define PAPI_HWINFO           16
#define PAPI_EXEINFO          17
#define PAPI_MAX_CPUS         18
#define PAPI_ATTACH           19
#define PAPI_SHLIBINFO        20
#define PAPI_LIB_VERSION      21
#define PAPI_COMPONENTINFO    22
#define PAPI_SUBSTRATEINFO    PAPI_COMPONENTINFO /* 3.x name */
#define PAPI_DATA_ADDRESS     23
#define PAPI_INSTR_ADDRESS    24
#define PAPI_DEF_ITIMER       25
#define PAPI_DEF_ITIMER_NS    26
#define PAPI_CPU_ATTACH       27
#define PAPI_INHERIT          28
#define PAPI_USER_EVENTS_FILE 29

#define PAPI_INIT_SLOTS 64

/* ---- string sizes ------------------------------------------------------------ */
#define PAPI_MIN_STR_LEN   64
#define PAPI_MAX_STR_LEN  128
#define PAPI_2MAX_STR_LEN 256
#define PAPI_HUGE_STR_LEN 1024
#define PAPI_PMU_MAX       80
#define PAPI_DERIVED      0x1

/* ---- enumeration modifiers ---------------------------------------------------- */
enum {
    PAPI_ENUM_EVENTS = 0,
    PAPI_ENUM_FIRST,
    PAPI_PRESET_ENUM_AVAIL,
    PAPI_PRESET_ENUM_MSC,
    PAPI_PRESET_ENUM_INS,
    PAPI_PRESET_ENUM_IDL,
    PAPI_PRESET_ENUM_BR,
    PAPI_PRESET_ENUM_CND,
    PAPI_PRESET_ENUM_MEM,
    PAPI_PRESET_ENUM_CACH,
    PAPI_PRESET_ENUM_L1,
    PAPI_PRESET_ENUM_L2,
    PAPI_PRESET_ENUM_L3,
    PAPI_PRESET_ENUM_TLB,
    PAPI_PRESET_ENUM_FP,
    PAPI_NTV_ENUM_UMASKS,
    PAPI_NTV_ENUM_UMASK_COMBOS,
    PAPI_NTV_ENUM_IARR,
    PAPI_NTV_ENUM_DARR,
    PAPI_NTV_ENUM_OPCM,
    PAPI_NTV_ENUM_IEAR,
    PAPI_NTV_ENUM_DEAR,
    PAPI_NTV_ENUM_GROUPS
};
#define PAPI_ENUM_ALL PAPI_ENUM_EVENTS

#define PAPI_PRESET_BIT_MSC  (1 << PAPI_PRESET_ENUM_MSC)
#define PAPI_PRESET_BIT_INS  (1 << PAPI_PRESET_ENUM_INS)
#define PAPI_PRESET_BIT_IDL  (1 << PAPI_PRESET_ENUM_IDL)
#define PAPI_PRESET_BIT_BR   (1 << PAPI_PRESET_ENUM_BR)
#define PAPI_PRESET_BIT_CND  (1 << PAPI_PRESET_ENUM_CND)
#define PAPI_PRESET_BIT_MEM  (1 << PAPI_PRESET_ENUM_MEM)
#define PAPI_PRESET_BIT_CACH (1 << PAPI_PRESET_ENUM_CACH)
#define PAPI_PRESET_BIT_L1   (1 << PAPI_PRESET_ENUM_L1)
#define PAPI_PRESET_BIT_L2   (1 << PAPI_PRESET_ENUM_L2)
#define PAPI_PRESET_BIT_L3   (1 << PAPI_PRESET_ENUM_L3)
#define PAPI_PRESET_BIT_TLB  (1 << PAPI_PRESET_ENUM_TLB)
#define PAPI_PRESET_BIT_FP   (1 << PAPI_PRESET_ENUM_FP)

#define PAPI_NTV_GROUP_AND_MASK 0x00FF0000
#define PAPI_NTV_GROUP_SHIFT    16

/* ---- basic types ------------------------------------------------------------- */
#define long_long   long long
#define u_long_long unsigned long long

typedef unsigned long PAPI_thread_id_t;
typedef void *vptr_t;
typedef char *caddr_t_papi;

typedef struct _papi_all_thr_spec {
    int num;
    PAPI_thread_id_t *id;
    void **data;
} PAPI_all_thr_spec_t;

typedef void (*PAPI_overflow_handler_t)(int EventSet, void *address,
                                        long long overflow_vector, void *context);

typedef struct _papi_sprofil {
    void *pr_base;     /* buffer base */
    unsigned pr_size;  /* buffer size in bytes */
    vptr_t pr_off;     /* start address of the profiled range */
    unsigned pr_scale; /* 16.16 fixed-point fraction: bytes of buffer per 2 bytes of text */
} PAPI_sprofil_t;

typedef struct _papi_itimer_option {
    int itimer_num;
    int itimer_sig;
    int ns;
    int flags;
} PAPI_itimer_option_t;

typedef struct _papi_inherit_option {
    int eventset;
    int inherit;
} PAPI_inherit_option_t;

typedef struct _papi_domain_option {
    int def_cidx;
    int eventset;
    int domain;
} PAPI_domain_option_t;

typedef struct _papi_granularity_option {
    int def_cidx;
    int eventset;
    int granularity;
} PAPI_granularity_option_t;

typedef struct _papi_preload_option {
    char lib_preload_env[PAPI_MAX_STR_LEN];
    char lib_preload_sep;
    char lib_dir_env[PAPI_MAX_STR_LEN];
    char lib_dir_sep;
} PAPI_preload_info_t;
typedef PAPI_preload_info_t PAPI_preload_option_t;

/* One structure for the 7.x component info and the 3.x substrate info. */
typedef struct _papi_component_option {
    char name[PAPI_MAX_STR_LEN];
    char short_name[PAPI_MIN_STR_LEN];
    char description[PAPI_MAX_STR_LEN];
    char version[PAPI_MIN_STR_LEN];
    char support_version[PAPI_MIN_STR_LEN];
    char kernel_version[PAPI_MIN_STR_LEN];
    char disabled_reason[PAPI_HUGE_STR_LEN]; /* why the component (or its hardware) is unusable */
    int disabled;                            /* 0 if enabled, else the PAPI error code */
    int initialized;
    int CmpIdx;
    int num_cntrs;
    int num_mpx_cntrs;
    int num_preset_events;
    int num_native_events;
    int default_domain;
    int available_domains;
    int default_granularity;
    int available_granularities;
    int hardware_intr_sig;
    int component_type;
    char *pmu_names[PAPI_PMU_MAX];
    /* 3.x substrate fields */
    int multiplex_timer_sig;
    int multiplex_timer_num;
    int multiplex_timer_us;
    int opcode_match_width;
    int reserved[8];
    unsigned int hardware_intr : 1;
    unsigned int precise_intr : 1;
    unsigned int posix1b_timers : 1;
    unsigned int kernel_profile : 1;
    unsigned int kernel_multiplex : 1;
    unsigned int fast_counter_read : 1;
    unsigned int fast_real_timer : 1;
    unsigned int fast_virtual_timer : 1;
    unsigned int attach : 1;
    unsigned int attach_must_ptrace : 1;
    unsigned int cntr_umasks : 1;
    unsigned int cpu : 1;
    unsigned int inherit : 1;
    unsigned int data_address_range : 1;
    unsigned int instr_address_range : 1;
    unsigned int edge_detect : 1;
    unsigned int invert : 1;
    unsigned int profile_ear : 1;
    unsigned int grouped_cntrs : 1;
    unsigned int reserved_bits : 13;
} PAPI_component_info_t;
typedef PAPI_component_info_t PAPI_substrate_info_t;

typedef struct _papi_mpx_info {
    int timer_sig;
    int timer_num;
    int timer_us;
} PAPI_mpx_info_t;

typedef int (*PAPI_debug_handler_t)(int code);

typedef struct _papi_debug_option {
    int level;
    PAPI_debug_handler_t handler;
} PAPI_debug_option_t;

typedef struct _papi_address_map {
    union { /* 7.x: name, 3.x: mapname */
        char name[PAPI_HUGE_STR_LEN];
        char mapname[PAPI_HUGE_STR_LEN];
    };
    vptr_t text_start;
    vptr_t text_end;
    vptr_t data_start;
    vptr_t data_end;
    vptr_t bss_start;
    vptr_t bss_end;
} PAPI_address_map_t;

typedef struct _papi_program_info {
    char fullname[PAPI_HUGE_STR_LEN]; /* path and name */
    char name[PAPI_HUGE_STR_LEN];     /* 3.x: name without the path */
    PAPI_address_map_t address_info;
    PAPI_preload_info_t preload_info; /* 3.x */
} PAPI_exe_info_t;

typedef struct _papi_shared_lib_info {
    PAPI_address_map_t *map;
    int count;
} PAPI_shlib_info_t;

typedef char *PAPI_user_defined_events_file_t;

/* ---- memory hierarchy ------------------------------------------------------------ */
#define PAPI_MH_TYPE_EMPTY      0x0
#define PAPI_MH_TYPE_INST       0x1
#define PAPI_MH_TYPE_DATA       0x2
#define PAPI_MH_TYPE_VECTOR     0x4
#define PAPI_MH_TYPE_TRACE      0x8
#define PAPI_MH_TYPE_UNIFIED    (PAPI_MH_TYPE_INST | PAPI_MH_TYPE_DATA)
#define PAPI_MH_CACHE_TYPE(a)   ((a) & 0xf)
#define PAPI_MH_TYPE_WT         0x00
#define PAPI_MH_TYPE_WB         0x10
#define PAPI_MH_CACHE_WRITE_POLICY(a) ((a) & 0xf0)
#define PAPI_MH_TYPE_UNKNOWN    0x000
#define PAPI_MH_TYPE_LRU        0x100
#define PAPI_MH_TYPE_PSEUDO_LRU 0x200
#define PAPI_MH_TYPE_FIFO       0x400
#define PAPI_MH_CACHE_REPLACEMENT_POLICY(a) ((a) & 0xf00)
#define PAPI_MH_TYPE_TLB        0x1000
#define PAPI_MH_TYPE_PREF       0x2000
#define PAPI_MH_TYPE_RD_ALLOC   0x10000
#define PAPI_MH_TYPE_WR_ALLOC   0x20000
#define PAPI_MH_TYPE_RW_ALLOC   0x40000
#define PAPI_MH_CACHE_ALLOCATION_POLICY(a) ((a) & 0xf0000)
#define PAPI_MH_MAX_LEVELS      6
#define PAPI_MAX_MEM_HIERARCHY_LEVELS 4

typedef struct _papi_mh_tlb_info {
    int type;
    int num_entries;
    int page_size;
    int associativity;
} PAPI_mh_tlb_info_t;

typedef struct _papi_mh_cache_info {
    int type;
    int size;
    int line_size;
    int num_lines;
    int associativity;
} PAPI_mh_cache_info_t;

typedef struct _papi_mh_level_info {
    PAPI_mh_tlb_info_t tlb[PAPI_MH_MAX_LEVELS];
    PAPI_mh_cache_info_t cache[PAPI_MH_MAX_LEVELS];
} PAPI_mh_level_t;

typedef struct _papi_mh_info {
    int levels;
    PAPI_mh_level_t level[PAPI_MAX_MEM_HIERARCHY_LEVELS];
} PAPI_mh_info_t;

typedef struct _papi_hw_info {
    int ncpu;      /* CPUs per NUMA node */
    int threads;   /* hardware threads per core */
    int cores;     /* cores per socket */
    int sockets;
    int nnodes;    /* NUMA nodes */
    int totalcpus; /* CPUs in the whole system */
    int vendor;
    char vendor_string[PAPI_MAX_STR_LEN];
    int model;
    char model_string[PAPI_MAX_STR_LEN];
    float revision;
    int cpuid_family;
    int cpuid_model;
    int cpuid_stepping;
    int cpu_max_mhz;
    int cpu_min_mhz;
    PAPI_mh_info_t mem_hierarchy;
    int virtualized;
    char virtual_vendor_string[PAPI_MAX_STR_LEN];
    char virtual_vendor_version[PAPI_MAX_STR_LEN];
    float mhz;     /* 3.x: current clock in MHz */
    int clock_mhz; /* 3.x: clock in MHz as an integer */
    int reserved[8];
} PAPI_hw_info_t;

typedef struct _papi_attach_option {
    int eventset;
    unsigned long tid;
} PAPI_attach_option_t;

typedef struct _papi_cpu_option {
    int eventset;
    unsigned int cpu_num;
} PAPI_cpu_option_t;

typedef struct _papi_multiplex_option {
    int eventset;
    int ns;         /* 7.x: time slice in ns */
    int flags;
    int us;         /* 3.x: time slice in us */
    int max_degree; /* 3.x */
} PAPI_multiplex_option_t;

typedef struct _papi_addr_range_option {
    int eventset;
    vptr_t start;
    vptr_t end;
    int start_off;
    int end_off;
} PAPI_addr_range_option_t;

typedef struct _papi_overflow_option {
    int eventset;
    int EventCode;
    int threshold;
    int flags;
    PAPI_overflow_handler_t handler;
} PAPI_overflow_option_t;

typedef union {
    PAPI_preload_info_t preload;
    PAPI_debug_option_t debug;
    PAPI_inherit_option_t inherit;
    PAPI_granularity_option_t granularity;
    PAPI_granularity_option_t defgranularity;
    PAPI_domain_option_t domain;
    PAPI_domain_option_t defdomain;
    PAPI_attach_option_t attach;
    PAPI_cpu_option_t cpu;
    PAPI_multiplex_option_t multiplex;
    PAPI_itimer_option_t itimer;
    PAPI_hw_info_t *hw_info;
    PAPI_shlib_info_t *shlib_info;
    PAPI_exe_info_t *exe_info;
    PAPI_component_info_t *cmp_info;
    PAPI_substrate_info_t *sub_info;
    PAPI_overflow_option_t ovf_info;
    PAPI_addr_range_option_t addr;
    PAPI_user_defined_events_file_t events_file;
} PAPI_option_t;

typedef struct _dmem_t {
    long long peak;
    long long size;
    long long resident;
    long long high_water_mark;
    long long shared;
    long long text;
    long long library;
    long long heap;
    long long locked;
    long long stack;
    long long pagesize;
    long long pte;
} PAPI_dmem_info_t;

/* Fortran indices into the PAPIF_get_dmem_info array (1-based). */
#define PAPIF_DMEM_VMPEAK     1
#define PAPIF_DMEM_VMSIZE     2
#define PAPIF_DMEM_RESIDENT   3
#define PAPIF_DMEM_HIGH_WATER 4
#define PAPIF_DMEM_SHARED     5
#define PAPIF_DMEM_TEXT       6
#define PAPIF_DMEM_LIBRARY    7
#define PAPIF_DMEM_HEAP       8
#define PAPIF_DMEM_LOCKED     9
#define PAPIF_DMEM_STACK      10
#define PAPIF_DMEM_PAGESIZE   11
#define PAPIF_DMEM_PTE        12
#define PAPIF_DMEM_MAXVAL     12

#define PAPI_MAX_INFO_TERMS 12

enum { PAPI_LOCATION_CORE = 0, PAPI_LOCATION_CPU, PAPI_LOCATION_PACKAGE, PAPI_LOCATION_UNCORE };
enum { PAPI_DATATYPE_INT64 = 0, PAPI_DATATYPE_UINT64, PAPI_DATATYPE_FP64, PAPI_DATATYPE_BIT64 };
enum { PAPI_VALUETYPE_RUNNING_SUM = 0, PAPI_VALUETYPE_ABSOLUTE };
enum { PAPI_TIMESCOPE_SINCE_START = 0, PAPI_TIMESCOPE_SINCE_LAST, PAPI_TIMESCOPE_UNTIL_NEXT,
       PAPI_TIMESCOPE_POINT };
enum { PAPI_UPDATETYPE_ARBITRARY = 0, PAPI_UPDATETYPE_PUSH, PAPI_UPDATETYPE_PULL,
       PAPI_UPDATETYPE_FIXEDFREQ };

/* Description of a preset or native event (both generations' fields). */
typedef struct event_info {
    unsigned int event_code;
    char symbol[PAPI_HUGE_STR_LEN];
    char short_descr[PAPI_MIN_STR_LEN];
    char long_descr[PAPI_HUGE_STR_LEN];
    int component_index;
    char units[PAPI_MIN_STR_LEN];
    int location;
    int data_type;
    int value_type;
    int timescope;
    int update_type;
    int update_freq;
    unsigned int count;      /* number of native terms */
    unsigned int event_type; /* PAPI_PRESET_BIT_* categories of a preset */
    char derived[PAPI_MIN_STR_LEN];
    char postfix[PAPI_2MAX_STR_LEN];
    unsigned int code[PAPI_MAX_INFO_TERMS];
    char name[PAPI_MAX_INFO_TERMS][PAPI_2MAX_STR_LEN];
    char note[PAPI_HUGE_STR_LEN];
} PAPI_event_info_t;

/* ---- low-level API -------------------------------------------------------------- */
/** Add the current counts of a running event set to values[] and set the counters back to zero.
 * values[] holds one entry per event, in the order the events were added. Returns PAPI_OK,
 * PAPI_ENOEVST for an unknown event set, PAPI_ENOTRUN when it is not running. */
int PAPI_accum(int EventSet, long long *values);
/** Add one preset or native event, given by its code, to an event set. Returns PAPI_OK;
 * PAPI_ENOEVNT when the event does not exist here, PAPI_ECNFLCT when it cannot be counted
 * together with the events already in the set, PAPI_EISRUN when the set is running.
 * PAPI_perror says why an event did not open. */
int PAPI_add_event(int EventSet, int Event);
/** Add one event, given by its name ("PAPI_TOT_INS", "perf::PAGE-FAULTS"), to an event set.
 * Errors as PAPI_add_event, plus PAPI_ENOEVNT for an unknown name. */
int PAPI_add_named_event(int EventSet, const char *EventName);
/** Add number events from the array Events to an event set. Returns PAPI_OK, or an error code
 * as PAPI_add_event for the first event that fails; the events before it stay in the set. */
int PAPI_add_events(int EventSet, int *Events, int number);
/** Bind an empty event set to component cidx before options such as multiplexing are set on it.
 * Returns PAPI_OK, PAPI_ENOCMP for a bad index, PAPI_ENOEVST for an unknown event set. */
int PAPI_assign_eventset_component(int EventSet, int cidx);
/** Count the events of an event set in the thread or process tid instead of the caller. Returns
 * PAPI_OK, PAPI_EISRUN when the set is running, PAPI_EPERM when the kernel refuses access to
 * tid. */
int PAPI_attach(int EventSet, unsigned long tid);
/** Remove every event from a stopped event set; the set itself stays and can take new events.
 * Returns PAPI_OK, PAPI_EISRUN, PAPI_ENOEVST. */
int PAPI_cleanup_eventset(int EventSet);
/** Create a new, empty event set. *EventSet must be PAPI_NULL on entry and holds the new handle
 * on return. Returns PAPI_OK, PAPI_EINVAL when *EventSet is not PAPI_NULL, PAPI_ENOMEM. */
int PAPI_create_eventset(int *EventSet);
/** Undo PAPI_attach: the event set counts in the calling thread again. Returns PAPI_OK,
 * PAPI_EISRUN, PAPI_ENOEVST. */
int PAPI_detach(int EventSet);
/** Free an empty, stopped event set and set *EventSet to PAPI_NULL. Returns PAPI_OK,
 * PAPI_EISRUN, PAPI_EINVAL when events are still in it. */
int PAPI_destroy_eventset(int *EventSet);
/** Disable component cidx before PAPI_library_init, so it is never initialised. Returns
 * PAPI_OK, PAPI_ENOCMP, PAPI_ENOINIT when the library is already initialised. */
int PAPI_disable_component(int cidx);
/** Disable the component called name before PAPI_library_init. Returns PAPI_OK, PAPI_ENOCMP for
 * an unknown name. */
int PAPI_disable_component_by_name(const char *name);
/** Read preset definitions from a CSV file (the format papi_decode prints) and add them, or
 * replace existing ones when replace is non-zero. Returns PAPI_OK, PAPI_ESYS when the file
 * cannot be read, PAPI_EINVAL for a malformed line. */
int PAPI_encode_events(char *event_file, int replace);
/** Step *EventCode to the next preset or native event; modifier PAPI_ENUM_FIRST starts,
 * PAPI_ENUM_EVENTS continues, PAPI_PRESET_ENUM_AVAIL skips presets not available here,
 * PAPI_NTV_ENUM_UMASKS walks the unit masks of a native event. Returns PAPI_OK, or
 * PAPI_ENOEVNT at the end. */
int PAPI_enum_event(int *EventCode, int modifier);
/** PAPI_enum_event restricted to the native events of component cidx. Returns PAPI_OK,
 * PAPI_ENOEVNT at the end, PAPI_ENOCMP for a bad index. */
int PAPI_enum_cmp_event(int *EventCode, int modifier, int cidx);
/** Write the name of the event EventCode into out (at least PAPI_MAX_STR_LEN bytes). Returns
 * PAPI_OK, PAPI_ENOEVNT, PAPI_ENOTPRESET. */
int PAPI_event_code_to_name(int EventCode, char *out);
/** Find the code of the event called in (a preset, a native event with optional component
 * prefix and unit masks). Returns PAPI_OK, PAPI_ENOEVNT for an unknown name. */
int PAPI_event_name_to_code(const char *in, int *out);
/** Return the index of the component called name ("perf_event"), or PAPI_ENOCMP. */
int PAPI_get_component_index(const char *name);
/** Return the description of component cidx: name, counters, capabilities, and when disabled
 * the reason in disabled_reason (its first PAPI_HUGE_STR_LEN - 1 bytes: a longer reason ends
 * there with "[cut: PAPI_get_component_reason() has it whole]"). NULL for a bad index. */
const PAPI_component_info_t *PAPI_get_component_info(int cidx);
/** Return why component cidx is disabled, or what limits it (perf_event without a hardware
 * PMU), whole whatever its length: the text of which disabled_reason holds at most
 * PAPI_HUGE_STR_LEN - 1 bytes; "" when there is none. NULL before PAPI_library_init or for a
 * bad index. Valid until PAPI_shutdown. An extension of this library (not in PAPI). */
const char *PAPI_get_component_reason(int cidx);
/** Fill *dest with the memory use of this process (size, resident, peak, heap, stack, page size
 * ...) from /proc. Returns PAPI_OK, PAPI_ESYS. */
int PAPI_get_dmem_info(PAPI_dmem_info_t *dest);
/** Return the index of the component that counts EventCode, or an error code for an unknown
 * event. */
int PAPI_get_event_component(int EventCode);
/** Fill *info with the name, descriptions, unit and, for a preset, the native events it is made
 * of; for a preset not available here, count 0 and the reason in note (its first
 * PAPI_HUGE_STR_LEN - 1 bytes: a longer one ends there with "[cut: PAPI_query_event() fails
 * with it whole in PAPI_strerror_detail()]"). Returns PAPI_OK, PAPI_ENOEVNT. */
int PAPI_get_event_info(int EventCode, PAPI_event_info_t *info);
/** Return the component index an event set is bound to, PAPI_ENOCMP when it is not bound yet,
 * PAPI_ENOEVST. */
int PAPI_get_eventset_component(int EventSet);
/** Return the path, name and text/data/bss addresses of the running program, or NULL before
 * PAPI_library_init. */
const PAPI_exe_info_t *PAPI_get_executable_info(void);
/** Return the CPU and node description (vendor, model, sockets, cores, threads, NUMA nodes,
 * caches and TLBs, clock, hypervisor), read from hwloc and the kernel. NULL before
 * PAPI_library_init. */
const PAPI_hw_info_t *PAPI_get_hardware_info(void);
/** Where cpu_max_mhz and cpu_min_mhz of PAPI_get_hardware_info come from: "cpufreq",
 * "acpi_cppc" (ACPI CPPC nominal_freq), "cpuinfo" (the "cpu MHz" of /proc/cpuinfo),
 * "measured" (a short count of user cycles against CPU time) or "bogomips" (the last
 * resort); "none" before PAPI_library_init. An extension of this library: PAPI 7 has no
 * such call. */
const char *PAPI_get_hardware_info_mhz_source(void);
/** Where the hardware information's counts and caches came from: "hwloc", or "sysconf
 * and sysfs (why not hwloc)", e.g. when the static library could not load libhwloc at
 * run time; "none" before PAPI_library_init. An extension of this library. */
const char *PAPI_get_hardware_info_topology_source(void);
/** The release of this library itself (papi-compat), such as "1.0.0", as its packages,
 * modulefiles and reports name it; the PAPI API level it implements is PAPI_VERSION
 * (PAPI_get_opt(PAPI_LIB_VERSION)). A support request names both. An extension of this
 * library: PAPI 7 has no such call. */
const char *PAPI_compat_version(void);

/* ---- sysdetect: devices of the machine (PAPI 7.0 API; src-c/lib/sysdetect) ----
 * Enumerate device types with PAPI_enum_dev_type (PAPI_OK while there is one, then
 * PAPI_EINVAL once and the enumeration starts again), then read a type's attributes
 * (INT: int *, CHAR: const char **) and each device's (UINT: unsigned int *, ULONG:
 * unsigned long *, CHAR: const char **). The CPU is one device; NUMA_MEM_SIZE (MB) and
 * THR_PER_NUMA take a NUMA node as id, THR_NUMA_AFFINITY a hardware thread (OS index). */
typedef enum {
    PAPI_DEV_TYPE_ID__CPU,
    PAPI_DEV_TYPE_ID__CUDA,
    PAPI_DEV_TYPE_ID__ROCM,
    PAPI_DEV_TYPE_ID__MAX_NUM,
} PAPI_dev_type_id_e;

enum {
    PAPI_DEV_TYPE_ENUM__FIRST = 0, /* always the first type */
    PAPI_DEV_TYPE_ENUM__CPU = 1 << PAPI_DEV_TYPE_ID__CPU,
    PAPI_DEV_TYPE_ENUM__CUDA = 1 << PAPI_DEV_TYPE_ID__CUDA,
    PAPI_DEV_TYPE_ENUM__ROCM = 1 << PAPI_DEV_TYPE_ID__ROCM,
    PAPI_DEV_TYPE_ENUM__ALL = (1 << PAPI_DEV_TYPE_ID__MAX_NUM) - 1,
};

typedef enum {
    PAPI_DEV_TYPE_ATTR__INT_PAPI_ID,   /* PAPI_DEV_TYPE_ID__* */
    PAPI_DEV_TYPE_ATTR__INT_VENDOR_ID, /* PAPI_VENDOR_* for the CPU */
    PAPI_DEV_TYPE_ATTR__CHAR_NAME,     /* vendor name */
    PAPI_DEV_TYPE_ATTR__INT_COUNT,     /* devices of this type */
    PAPI_DEV_TYPE_ATTR__CHAR_STATUS,   /* why there are none, when there are none */
} PAPI_dev_type_attr_e;

/* The order is PAPI 7.0's (the values are its ABI). */
typedef enum {
    PAPI_DEV_ATTR__CPU_CHAR_NAME,
    PAPI_DEV_ATTR__CPU_UINT_L1I_CACHE_SIZE, PAPI_DEV_ATTR__CPU_UINT_L1D_CACHE_SIZE,
    PAPI_DEV_ATTR__CPU_UINT_L2U_CACHE_SIZE, PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_SIZE,
    PAPI_DEV_ATTR__CPU_UINT_L1I_CACHE_LINE_SIZE, PAPI_DEV_ATTR__CPU_UINT_L1D_CACHE_LINE_SIZE,
    PAPI_DEV_ATTR__CPU_UINT_L2U_CACHE_LINE_SIZE, PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_LINE_SIZE,
    PAPI_DEV_ATTR__CPU_UINT_L1I_CACHE_LINE_COUNT, PAPI_DEV_ATTR__CPU_UINT_L1D_CACHE_LINE_COUNT,
    PAPI_DEV_ATTR__CPU_UINT_L2U_CACHE_LINE_COUNT, PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_LINE_COUNT,
    PAPI_DEV_ATTR__CPU_UINT_L1I_CACHE_ASSOC, PAPI_DEV_ATTR__CPU_UINT_L1D_CACHE_ASSOC,
    PAPI_DEV_ATTR__CPU_UINT_L2U_CACHE_ASSOC, PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_ASSOC,
    PAPI_DEV_ATTR__CPU_UINT_SOCKET_COUNT, PAPI_DEV_ATTR__CPU_UINT_NUMA_COUNT,
    PAPI_DEV_ATTR__CPU_UINT_CORE_COUNT, PAPI_DEV_ATTR__CPU_UINT_THREAD_COUNT,
    PAPI_DEV_ATTR__CPU_UINT_FAMILY, PAPI_DEV_ATTR__CPU_UINT_MODEL, PAPI_DEV_ATTR__CPU_UINT_STEPPING,
    PAPI_DEV_ATTR__CPU_UINT_NUMA_MEM_SIZE, PAPI_DEV_ATTR__CPU_UINT_THR_NUMA_AFFINITY,
    PAPI_DEV_ATTR__CPU_UINT_THR_PER_NUMA,
    PAPI_DEV_ATTR__CUDA_ULONG_UID, PAPI_DEV_ATTR__CUDA_CHAR_DEVICE_NAME,
    PAPI_DEV_ATTR__CUDA_UINT_WARP_SIZE, PAPI_DEV_ATTR__CUDA_UINT_SHM_PER_BLK,
    PAPI_DEV_ATTR__CUDA_UINT_SHM_PER_SM, PAPI_DEV_ATTR__CUDA_UINT_BLK_DIM_X,
    PAPI_DEV_ATTR__CUDA_UINT_BLK_DIM_Y, PAPI_DEV_ATTR__CUDA_UINT_BLK_DIM_Z,
    PAPI_DEV_ATTR__CUDA_UINT_GRD_DIM_X, PAPI_DEV_ATTR__CUDA_UINT_GRD_DIM_Y,
    PAPI_DEV_ATTR__CUDA_UINT_GRD_DIM_Z, PAPI_DEV_ATTR__CUDA_UINT_THR_PER_BLK,
    PAPI_DEV_ATTR__CUDA_UINT_SM_COUNT, PAPI_DEV_ATTR__CUDA_UINT_MULTI_KERNEL,
    PAPI_DEV_ATTR__CUDA_UINT_MAP_HOST_MEM, PAPI_DEV_ATTR__CUDA_UINT_MEMCPY_OVERLAP,
    PAPI_DEV_ATTR__CUDA_UINT_UNIFIED_ADDR, PAPI_DEV_ATTR__CUDA_UINT_MANAGED_MEM,
    PAPI_DEV_ATTR__CUDA_UINT_COMP_CAP_MAJOR, PAPI_DEV_ATTR__CUDA_UINT_COMP_CAP_MINOR,
    PAPI_DEV_ATTR__CUDA_UINT_BLK_PER_SM,
    PAPI_DEV_ATTR__ROCM_ULONG_UID, PAPI_DEV_ATTR__ROCM_CHAR_DEVICE_NAME,
    PAPI_DEV_ATTR__ROCM_UINT_WAVEFRONT_SIZE, PAPI_DEV_ATTR__ROCM_UINT_WORKGROUP_SIZE,
    PAPI_DEV_ATTR__ROCM_UINT_WAVE_PER_CU, PAPI_DEV_ATTR__ROCM_UINT_SHM_PER_WG,
    PAPI_DEV_ATTR__ROCM_UINT_WG_DIM_X, PAPI_DEV_ATTR__ROCM_UINT_WG_DIM_Y,
    PAPI_DEV_ATTR__ROCM_UINT_WG_DIM_Z, PAPI_DEV_ATTR__ROCM_UINT_GRD_DIM_X,
    PAPI_DEV_ATTR__ROCM_UINT_GRD_DIM_Y, PAPI_DEV_ATTR__ROCM_UINT_GRD_DIM_Z,
    PAPI_DEV_ATTR__ROCM_UINT_CU_COUNT, PAPI_DEV_ATTR__ROCM_UINT_SIMD_PER_CU,
    PAPI_DEV_ATTR__ROCM_UINT_COMP_CAP_MAJOR, PAPI_DEV_ATTR__ROCM_UINT_COMP_CAP_MINOR,
} PAPI_dev_attr_e;

/** Step through the device types of the machine (sysdetect). enum_modifier is
 * PAPI_DEV_TYPE_ENUM__FIRST, a PAPI_DEV_TYPE_ENUM__* type mask or PAPI_DEV_TYPE_ENUM__ALL;
 * *handle receives the next type. Returns PAPI_OK while there is one, then PAPI_EINVAL once
 * (and the enumeration starts again); PAPI_EINVAL for a NULL handle or an unknown mask. */
int PAPI_enum_dev_type(int enum_modifier, void **handle);
/** Read attribute attr (PAPI_DEV_TYPE_ATTR__*) of the device type handle into *value (an
 * int, or a const char * for CHAR attributes): its PAPI id, vendor, name, number of devices
 * and, when there are none, why. Returns PAPI_OK, PAPI_EINVAL for a bad handle, PAPI_ENOSUPP
 * for an unknown attribute. */
int PAPI_get_dev_type_attr(void *handle, PAPI_dev_type_attr_e attr, void *value);
/** Read attribute attr (PAPI_DEV_ATTR__*) of device id of type handle into *value: for the
 * CPU its name, caches, sockets, NUMA nodes, cores, threads, family, model and stepping (from
 * hwloc). Returns PAPI_OK, PAPI_EINVAL for a bad handle or id, PAPI_ENOSUPP for an attribute
 * of another device type. */
int PAPI_get_dev_attr(void *handle, int id, PAPI_dev_attr_e attr, void *value);
/* ---- end of sysdetect ---- */
/** Return 1 when an event set is multiplexed, 0 when not, or an error code. */
int PAPI_get_multiplex(int EventSet);
/** Read the library or event set option named by option (PAPI_DEFDOM, PAPI_MULTIPLEX,
 * PAPI_HWINFO, PAPI_LIB_VERSION, ...) into *ptr; some options return their value directly.
 * Returns PAPI_OK or an error code such as PAPI_EINVAL for an unknown option. */
int PAPI_get_opt(int option, PAPI_option_t *ptr);
/** PAPI_get_opt for component cidx (PAPI_MAX_MPX_CTRS, PAPI_MAX_HWCTRS, ...). */
int PAPI_get_cmp_opt(int option, PAPI_option_t *ptr, int cidx);
/** Translate the overflow_vector an overflow handler received into the indices (in the event
 * set) of the events that overflowed. *number is the capacity of array on entry and the count
 * on return. Returns PAPI_OK, PAPI_EINVAL. */
int PAPI_get_overflow_event_index(int EventSet, long long overflow_vector, int *array, int *number);
/** Return the real (wall-clock) time in cycles since an arbitrary moment. */
long long PAPI_get_real_cyc(void);
/** Return the real (wall-clock) time in nanoseconds since an arbitrary moment. */
long long PAPI_get_real_nsec(void);
/** Return the real (wall-clock) time in microseconds since an arbitrary moment. */
long long PAPI_get_real_usec(void);
/** Return the shared objects mapped into the process with their address ranges, or NULL before
 * PAPI_library_init. */
const PAPI_shlib_info_t *PAPI_get_shared_lib_info(void);
/** PAPI 3 name of PAPI_get_component_info(0): the description of the CPU counter component. */
const PAPI_substrate_info_t *PAPI_get_substrate_info(void);
/** Read the pointer a thread stored with PAPI_set_thr_specific under tag (PAPI_USR1_TLS,
 * PAPI_USR2_TLS). Returns PAPI_OK, PAPI_EINVAL. */
int PAPI_get_thr_specific(int tag, void **ptr);
/** Return the CPU time of the calling thread in cycles. */
long long PAPI_get_virt_cyc(void);
/** Return the CPU time of the calling thread in nanoseconds. */
long long PAPI_get_virt_nsec(void);
/** Return the CPU time of the calling thread in microseconds. */
long long PAPI_get_virt_usec(void);
/** Return PAPI_NOT_INITED, or the bits PAPI_LOW_LEVEL_INITED, PAPI_HIGH_LEVEL_INITED and
 * PAPI_THREAD_LEVEL_INITED of what has been initialised. */
int PAPI_is_initialized(void);
/** Initialise the library; call it first with PAPI_VER_CURRENT. Returns PAPI_VER_CURRENT on
 * success, PAPI_EINVAL when the header and library versions differ, or another error code. */
int PAPI_library_init(int version);
/** Initialise the library for a tool inside the program's process, unseen by the program.
 * For an OMPT tool, a PMPI wrapper or a preloaded library using the program's own libpapi:
 * the library starts, once, for the tool and the program alike, but the program's
 * PAPI_is_initialized shows only what its own calls did (PAPI_NOT_INITED until it calls
 * PAPI_library_init or the high level). A tool should also leave PAPI_thread_init to the
 * program: every event set counts its own thread without it. Returns PAPI_VER_CURRENT, or
 * PAPI_library_init's codes. An extension of this library (not in PAPI). */
int PAPI_tool_init(int version);
/** Copy the codes of the events in an event set into Events; *number is the capacity on entry
 * and the number of events on return. Returns PAPI_OK, PAPI_ENOEVST. */
int PAPI_list_events(int EventSet, int *Events, int *number);
/** Copy the ids of the registered threads into tids; *number is the capacity on entry and the
 * count on return. Returns PAPI_OK. */
int PAPI_list_threads(PAPI_thread_id_t *tids, int *number);
/** Take one of the user locks PAPI_USR1_LOCK or PAPI_USR2_LOCK. Returns PAPI_OK, PAPI_EINVAL. */
int PAPI_lock(int lck);
/** Enable multiplexing; call before PAPI_set_multiplex. Returns PAPI_OK. */
int PAPI_multiplex_init(void);
/** Return the number of hardware counters of component cidx that can be used here (0 without a
 * PMU), or an error code. */
int PAPI_num_cmp_hwctrs(int cidx);
/** Return the number of components, enabled or not. */
int PAPI_num_components(void);
/** Return the number of events in an event set, or PAPI_ENOEVST. */
int PAPI_num_events(int EventSet);
/** Return the number of usable hardware counters of the CPU component (0 without a PMU). */
int PAPI_num_hwctrs(void);

/* ---- PAPI 7.0 compatibility macros (drop-in) ---- */
#define PAPI_COMPONENT_INDEX(a) PAPI_get_event_component(a)
#define PAPI_descr_error(a) PAPI_strerror(a)
/** Call handler every time event EventCode of the event set counts threshold more events;
 * threshold 0 turns it off. Returns PAPI_OK, PAPI_EISRUN, PAPI_ENOEVNT when the event is not
 * in the set, PAPI_ECNFLCT. */
int PAPI_overflow(int EventSet, int EventCode, int threshold, int flags,
                  PAPI_overflow_handler_t handler);
/* ---- papi-compat extension (not in PAPI): overflow in frequency mode, the call chain in
 * the handler, the rate in force (man PAPI_overflow_frequency, PAPI_get_overflow_callchain,
 * PAPI_get_overflow_rate) ---- */
/** Call handler about hz times per second of the event's time: PAPI_overflow with the kernel
 * choosing the period (perf_event's sample_freq); hz 0 refused, PAPI_overflow threshold 0
 * turns it off. Returns PAPI_OK, PAPI_EINVAL for hz below 1 or above the kernel's
 * perf_event_max_sample_rate, PAPI_ENOSUPP when the event cannot sample in the kernel, or
 * PAPI_overflow's codes. An extension of this library (not in PAPI); Fortran:
 * PAPIF_overflow_frequency. */
int PAPI_overflow_frequency(int EventSet, int EventCode, int hz, int flags,
                            PAPI_overflow_handler_t handler);
/** From an overflow handler only: store the call chain of the overflow being handled in
 * pcs[0 .. max-1], innermost first (pcs[0] is the handler's address argument, then return
 * addresses), and return how many (at least 1); PAPI_EINVAL outside a handler or for pcs
 * NULL or max below 1, PAPI_ENOSUPP where the walk is not implemented. Async-signal-safe. An
 * extension of this library (not in PAPI); Fortran: PAPIF_get_overflow_callchain. */
int PAPI_get_overflow_callchain(void **pcs, int max);
/** The rate the overflow of EventCode in EventSet runs at, which may be slower than asked.
 * *rate: the threshold (events per overflow) or, with *hz 1, the frequency in Hz in force
 * now (before the first PAPI_start: the one it will start at), slower than asked where the
 * signals would pass 10,000 a second, came faster than the handler took them or caused their
 * own overflows (the thread made no progress between them); *slowed: the
 * times that happened since PAPI_start; *queue_overflows: the times the process's signal
 * queue was full (notifications lost). Returns PAPI_OK, PAPI_ENOEVST, PAPI_ENOEVNT when the event is not in the set, PAPI_EINVAL
 * for a NULL pointer or an event without overflow. An extension of this library (not in
 * PAPI); Fortran: PAPIF_get_overflow_rate. */
int PAPI_get_overflow_rate(int EventSet, int EventCode, long long *rate, int *hz, int *slowed,
                           long long *queue_overflows);
/** Build a histogram of program counter values in buf (bufsiz bytes, covering the text from
 * offset, scaled by scale) sampled every threshold events of EventCode. Returns PAPI_OK or an
 * error code as PAPI_overflow. */
int PAPI_profil(void *buf, unsigned bufsiz, vptr_t offset, unsigned scale, int EventSet,
                int EventCode, int threshold, int flags);
/** Return PAPI_OK when the event EventCode exists and can be counted here, PAPI_ENOEVNT
 * otherwise; for a preset that is not available, PAPI_strerror_detail() then gives the whole
 * reason, whatever its length. */
int PAPI_query_event(int EventCode);
/** PAPI_query_event for an event given by name. */
int PAPI_query_named_event(const char *EventName);
/** Copy the current counts of an event set into values without stopping or resetting it.
 * Returns PAPI_OK, PAPI_ENOEVST, PAPI_ENOTRUN. */
int PAPI_read(int EventSet, long long *values);
/** PAPI_read that also stores the real time in cycles at the moment of the read in *cyc. */
int PAPI_read_ts(int EventSet, long long *values, long long *cyc);
/** Register the calling thread with the library (needed only to list it before it creates an
 * event set). Returns PAPI_OK. */
int PAPI_register_thread(void);
/** Remove event EventCode from a stopped event set. Returns PAPI_OK, PAPI_EINVAL when it is not
 * in the set, PAPI_EISRUN. */
int PAPI_remove_event(int EventSet, int EventCode);
/** PAPI_remove_event for an event given by name. */
int PAPI_remove_named_event(int EventSet, const char *EventName);
/** Remove number events of the array Events from a stopped event set. Returns PAPI_OK or the
 * error of the first one that fails. */
int PAPI_remove_events(int EventSet, int *Events, int number);
/** Set the counters of an event set back to zero, running or not. Returns PAPI_OK,
 * PAPI_ENOEVST. */
int PAPI_reset(int EventSet);
/** Set what the library does on an error: PAPI_QUIET, PAPI_VERB_ECONT (print and continue) or
 * PAPI_VERB_ESTOP (print and exit). Returns PAPI_OK, PAPI_EINVAL. */
int PAPI_set_debug(int level);
/** Set the default counting domain (PAPI_DOM_USER, PAPI_DOM_KERNEL, PAPI_DOM_ALL ...) of
 * component cidx for new event sets. Returns PAPI_OK, PAPI_EINVAL. */
int PAPI_set_cmp_domain(int domain, int cidx);
/** Set the default counting domain of the CPU component for new event sets. */
int PAPI_set_domain(int domain);
/** Set the default granularity (PAPI_GRN_THR, PAPI_GRN_PROC, ...) of component cidx for new
 * event sets. Returns PAPI_OK, PAPI_EINVAL. */
int PAPI_set_cmp_granularity(int granularity, int cidx);
/** Set the default granularity of the CPU component for new event sets. */
int PAPI_set_granularity(int granularity);
/** Define or (with replace non-zero) redefine a user event from *info; its code is stored in
 * *EventCode. Returns PAPI_OK, PAPI_EINVAL. */
int PAPI_set_event_info(PAPI_event_info_t *info, int *EventCode, int replace);
/** Turn a stopped event set into a multiplexed one, so it may hold more events than counters
 * (the kernel time-shares them and scales the counts). Returns PAPI_OK, PAPI_EISRUN,
 * PAPI_EINVAL when it is already multiplexed. */
int PAPI_set_multiplex(int EventSet);
/** Set the library or event set option named by option (PAPI_DEFDOM, PAPI_DOMAIN, PAPI_GRANUL,
 * PAPI_MULTIPLEX, PAPI_ATTACH, PAPI_CPU_ATTACH, PAPI_INHERIT, ...) from *ptr. Returns PAPI_OK,
 * PAPI_EINVAL, PAPI_EISRUN. */
int PAPI_set_opt(int option, PAPI_option_t *ptr);
/** Store a pointer for the calling thread under tag (PAPI_USR1_TLS, PAPI_USR2_TLS). Returns
 * PAPI_OK, PAPI_EINVAL. */
int PAPI_set_thr_specific(int tag, void *ptr);
/** Stop and free every event set and release everything the library holds. */
void PAPI_shutdown(void);
/** PAPI_profil for profcnt separate text ranges, each with its own buffer in prof[]. Returns
 * PAPI_OK or an error code. */
int PAPI_sprofil(PAPI_sprofil_t *prof, int profcnt, int EventSet, int EventCode, int threshold,
                 int flags);
/** Start counting the events of an event set from zero. Returns PAPI_OK, PAPI_EISRUN,
 * PAPI_ECNFLCT when the events cannot all be scheduled, PAPI_ENOEVST. */
int PAPI_start(int EventSet);
/** Store the state bits of an event set (PAPI_STOPPED, PAPI_RUNNING, PAPI_MULTIPLEXING,
 * PAPI_OVERFLOWING, ...) in *status. Returns PAPI_OK, PAPI_ENOEVST. */
int PAPI_state(int EventSet, int *status);
/** Stop a running event set and copy its final counts into values (which may be NULL). Returns
 * PAPI_OK, PAPI_ENOTRUN, PAPI_ENOEVST. */
int PAPI_stop(int EventSet, long long *values);
/** Return the text of an error code ("Event does not exist"), or NULL for a number that is no
 * error code. papi_error_codes(1) lists them all. */
char *PAPI_strerror(int errorCode);
/** Return why the calling thread's last failing PAPI call failed, whole, whatever its length
 * ("perf::FOO: event not found ...", "no hardware PMU: ..."), or "" when none failed yet. The
 * text stays valid until this thread's next failing call. An extension of this library (not
 * in PAPI); Fortran: PAPIF_strerror_detail(detail). */
const char *PAPI_strerror_detail(void);
/** Return the id of the calling thread as the function given to PAPI_thread_init computes it,
 * or (unsigned long)-1 when none was given. */
unsigned long PAPI_thread_id(void);
/** Tell the library how to get the id of the calling thread (e.g. pthread_self) before threads
 * use it. Returns PAPI_OK, PAPI_EINVAL. */
int PAPI_thread_init(unsigned long (*id_fn)(void));
/** Release a user lock taken with PAPI_lock. Returns PAPI_OK, PAPI_EINVAL. */
int PAPI_unlock(int lck);
/** Free what the library keeps for the calling thread; its event sets must be destroyed first.
 * Returns PAPI_OK. */
int PAPI_unregister_thread(void);
/** Set the counters of an event set to the values in values. Returns PAPI_OK, PAPI_ENOEVST. */
int PAPI_write(int EventSet, long long *values);
/** For a multiplexed event set, store for each event the fraction of the time it was on a
 * counter (1.0 when not multiplexed). Returns PAPI_OK, PAPI_ENOEVST. */
int PAPI_get_event_running_fraction(int EventSet, double *fractions, int *number);

/* PAPI_perror has two signatures: 3.x int PAPI_perror(int code, char *dest, int len)
 * and 7.x void PAPI_perror(const char *msg). The macro picks one by argument count;
 * the exported symbol PAPI_perror is the 7.x one. */
/** The PAPI 3 form of PAPI_perror: write the text of error code into destination (length
 * bytes). Returns PAPI_OK, PAPI_EINVAL. */
int PAPI_perror3(int code, char *destination, int length);
/** The PAPI 7 form of PAPI_perror: print msg, the text of the calling thread's last error and
 * the reason the library recorded for it to stderr. */
void PAPI_perror1(const char *msg);
/** Print or format an error. PAPI_perror(msg) (PAPI 7) prints msg and the last error of the
 * calling thread with its reason to stderr; PAPI_perror(code, destination, length) (PAPI 3)
 * writes the text of code into destination. A macro picks the form by the number of arguments. */
void(PAPI_perror)(const char *msg);
#define PAPI_PERROR_PICK_(a1, a2, a3, name, ...) name
#define PAPI_perror(...) \
    PAPI_PERROR_PICK_(__VA_ARGS__, PAPI_perror3, PAPI_perror_needs_1_or_3_args, PAPI_perror1, )(__VA_ARGS__)

/* ---- high-level API, 3.x -------------------------------------------------------- */
/** PAPI 3 high level: add the counts since the last call to values and reset the counters
 * started with PAPI_start_counters. Returns PAPI_OK, PAPI_ENOTRUN. */
int PAPI_accum_counters(long long *values, int array_len);
/** PAPI 3 high level: return the number of hardware counters usable here (0 without a PMU), or
 * an error code. */
int PAPI_num_counters(void);
/** PAPI 3 high level: copy the counts since the last call into values and reset the counters.
 * Returns PAPI_OK, PAPI_ENOTRUN. */
int PAPI_read_counters(long long *values, int array_len);
/** PAPI 3 high level: start counting the array_len events in events. Returns PAPI_OK,
 * PAPI_EISRUN, or the error of the event that cannot be added. */
int PAPI_start_counters(int *events, int array_len);
/** PAPI 3 high level: stop the counters started with PAPI_start_counters and copy their counts
 * into values. Returns PAPI_OK, PAPI_ENOTRUN. */
int PAPI_stop_counters(long long *values, int array_len);
/** PAPI 3 high level: real time, process time, floating-point instructions since the first call
 * and the MFLIPS rate since the last call. Returns PAPI_OK, or PAPI_ENOEVNT when PAPI_FP_INS
 * cannot be counted here. */
int PAPI_flips(float *rtime, float *ptime, long long *flpins, float *mflips);
/** PAPI 3 high level: real time, process time, floating-point operations since the first call
 * and the MFLOPS rate since the last call. Returns PAPI_OK, or PAPI_ENOEVNT when PAPI_FP_OPS
 * cannot be counted here. */
int PAPI_flops(float *rtime, float *ptime, long long *flpops, float *mflops);
/** PAPI 3 high level: real time, process time, instructions since the first call and
 * instructions per cycle since the last call. Returns PAPI_OK, PAPI_ENOEVNT. */
int PAPI_ipc(float *rtime, float *ptime, long long *ins, float *ipc);

/* ---- high-level API, 7.x -------------------------------------------------------- */
/** PAPI 7 rate: as PAPI_flips, with the floating-point instruction event chosen by event
 * (PAPI_FP_INS, PAPI_VEC_SP, PAPI_VEC_DP). Returns PAPI_OK, PAPI_ENOEVNT. */
int PAPI_flips_rate(int event, float *rtime, float *ptime, long long *flpins, float *mflips);
/** PAPI 7 rate: as PAPI_flops, with the floating-point operation event chosen by event
 * (PAPI_FP_OPS, PAPI_SP_OPS, PAPI_DP_OPS). Returns PAPI_OK, PAPI_ENOEVNT. */
int PAPI_flops_rate(int event, float *rtime, float *ptime, long long *flpops, float *mflops);
/** PAPI 7 rate: count event (PAPI_TOT_INS when 0), reference cycles and core cycles, and give
 * events per cycle since the last call. Returns PAPI_OK, PAPI_ENOEVNT. */
int PAPI_epc(int event, float *rtime, float *ptime, long long *ref, long long *core,
             long long *evt, float *epc);
/** Stop the counters started by PAPI_flips_rate, PAPI_flops_rate, PAPI_ipc or PAPI_epc. Returns
 * PAPI_OK, PAPI_ENOTRUN. */
int PAPI_rate_stop(void);
/** Start measuring the region called region in the calling thread with the events of
 * PAPI_EVENTS (default: a CPU set). Regions nest; at exit the results are written to
 * papi_hl_output/rank_*.json (see papi_hl_output_writer(1)). Returns PAPI_OK or an error code. */
int PAPI_hl_region_begin(const char *region);
/** Record the counts of an open region so far as a separate read value, without ending it.
 * Returns PAPI_OK, PAPI_EINVAL when the region was not begun in this thread. */
int PAPI_hl_read(const char *region);
/** End the region called region and add its counts to the results. Returns PAPI_OK,
 * PAPI_EINVAL when the region was not begun in this thread. */
int PAPI_hl_region_end(const char *region);
/** Stop and release the region counters of the calling thread. Returns PAPI_OK, PAPI_ENOTRUN
 * when none run in this thread, PAPI_EINVAL while a region is still open. */
int PAPI_hl_stop(void);

#include "papi_api_end.h"

#endif /* PAPI_H */
