/* sysfs_encode.h: native event names of the kernel's sysfs description -> the bits of
 * perf_event_attr, for any PMU under /sys/bus/event_source/devices (sysfs_pmus.h).
 *
 * Names (documented in src-c/lib/README.md, "perf_event native event names"):
 *   <pmu>::<event>                  a named event of the PMU's events/ directory
 *   <pmu>::<field>=<v>[,<field>=<v>] raw fields, each checked against the PMU's format/
 *                                   (value fits the field's bits); config=, config1= and
 *                                   config2= set a whole word
 *   <pmu>::r<hex>                   a raw config value, as perf's r<hex>
 * each optionally followed by privilege modifiers :u (user), :k (kernel), :h
 * (hypervisor), which combine (":u:k") and override the event set's domain. Values are
 * decimal or 0x hexadecimal, as perf reads them (a leading 0 is no octal; no sign, no
 * space). */
#ifndef SYSFS_ENCODE_H
#define SYSFS_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#define SYSFS_PLM_USER   1
#define SYSFS_PLM_KERNEL 2
#define SYSFS_PLM_HV     4

struct sysfs_encoding {
    int pmu;            /* index of the PMU (sysfs_pmu_at) */
    int event;          /* index of the named event, -1 for raw fields or r<hex> */
    int type;           /* perf_event_attr.type */
    uint64_t config[3]; /* config, config1, config2 */
    int plm;            /* SYSFS_PLM_* from modifiers, 0 when the name has none */
};

/* Encode name. Returns 0, or -1 with the reason in why (whylen bytes); canon (when not
 * NULL) receives "<pmu>::<rest as given>". A name whose PMU sysfs does not list is
 * refused with why beginning "no PMU". */
__attribute__((visibility("hidden"))) int sysfs_encode(const char *name, struct sysfs_encoding *enc,
                                                       char *why, size_t whylen);

#endif
