/* test_sysfs_events: native events of the kernel's sysfs description, on the recorded
 * Zen 5 node (PAPI_FSROOT=tests/machines/zen5_node, set by ctest): named events, raw
 * fields checked against format/ (a value wider than its field, an unknown field and an
 * unknown modifier are refused with the reason), r<hex>, :u/:k, an event code that
 * spans two bit ranges (event 0x18e: bits 0-7 and 32-35), an uncore PMU's event in the
 * uncore component, and the listing by PMU with the route. The encodings are read back
 * from PAPI_get_event_info, which prints what the library opens; the reasons from the
 * library's last error detail (internal: the test links the static library). */
#include "events.h"
#include "papi_globals.h"
#include "native_hybrid.h"
#include "native_sysfs.h"
#include "papi_test.h"

/* The perf type and config words the library reports it would open for name. */
static int encoding(const char *name, unsigned *type, unsigned long long *config, int *cidx)
{
    int code;
    PAPI_event_info_t info;
    if (PAPI_event_name_to_code(name, &code) != PAPI_OK || PAPI_get_event_info(code, &info) != PAPI_OK)
        return -1;
    const char *p = strstr(info.long_descr, "perf_event_attr type ");
    if (!p || sscanf(p, "perf_event_attr type %u config %llx", type, config) != 2)
        return -1;
    *cidx = PAPI_get_event_component(code);
    CHECK(strstr(info.note, "sysfs") != NULL, "%s: note '%s' does not name the sysfs route", name,
          info.note);
    return 0;
}

static void expect(const char *name, unsigned want_type, unsigned long long want_config)
{
    unsigned type = 0;
    unsigned long long config = 0;
    int cidx = -1;
    CHECK(encoding(name, &type, &config, &cidx) == 0, "%s does not resolve: %s", name,
          PAPI_strerror(PAPI_ENOEVNT));
    CHECK(type == want_type && config == want_config, "%s: type %u config 0x%llx, want %u 0x%llx",
          name, type, config, want_type, want_config);
}

int main(void)
{
    const char *root = getenv("PAPI_FSROOT");
    if (!root || !*root)
        test_skip("PAPI_FSROOT is not set (ctest sets it to tests/machines/zen5_node)");
    init_or_die();

    /* The AMD core PMU's format: event config:0-7,32-35, umask config:8-15. */
    expect("cpu::instructions", 4, 0xc0);
    expect("cpu::event=0xc0", 4, 0xc0);
    expect("cpu::rc0", 4, 0xc0);
    expect("cpu::event=0x03,umask=0xa0", 4, 0xa003);
    expect("cpu::event=0x18e,umask=0x18", 4, 0x10000188eULL);
    expect("cpu::event=0x76,cmask=2,inv=1", 4, 0x02800076);
    expect("cpu::cache-references:u", 4, 0xff60);
    expect("msr::tsc", 8, 0);
    /* Values as perf's event parser reads them: decimal or 0x hex, a leading 0 is no octal. */
    expect("cpu::event=010", 4, 10);
    expect("cpu::event=0x10,umask=010", 4, 0x0a10);
    expect("cpu::config=0018446744073709551615", 4, 0xffffffffffffffffULL);
    expect("cpu::config=0xFFFFFFFFFFFFFFFF", 4, 0xffffffffffffffffULL);

    /* Privilege modifiers: the exclude bits the library opens the event with, for an event
     * set counting in domain (PAPI_DOM_*); a name's own :u/:k/:h win over the domain. */
    static const struct {
        const char *name;
        int domain, ex_user, ex_kernel, ex_hv;
    } plm[] = {
        {"cpu::cache-references:u", PAPI_DOM_ALL, 0, 1, 1},
        {"cpu::cache-references:k", PAPI_DOM_USER, 1, 0, 1},
        {"cpu::cache-references:u:k", PAPI_DOM_USER, 0, 0, 1},
        {"cpu::event=0x76:h", PAPI_DOM_USER, 1, 1, 0},
        {"cpu::cpu-cycles", PAPI_DOM_USER, 0, 1, 1},
        {"cpu::cpu-cycles", PAPI_DOM_KERNEL, 1, 0, 1},
        {"cpu::cpu-cycles", PAPI_DOM_USER | PAPI_DOM_KERNEL, 0, 0, 1},
        {"msr::tsc", PAPI_DOM_USER, 0, 0, 0}, /* not a core PMU: the kernel takes no bits */
    };
    for (size_t i = 0; i < sizeof plm / sizeof plm[0]; i++) {
        int code;
        CHECK_RET(PAPI_event_name_to_code(plm[i].name, &code), PAPI_OK);
        const struct native_event *e = native_lookup(cmp_local(code));
        CHECK(e && e->route == ROUTE_SYSFS, "%s: not a sysfs event", plm[i].name);
        if (!e)
            continue;
        struct perf_event_attr a;
        native_sysfs_attr(e, plm[i].domain, &a);
        CHECK(a.exclude_user == (unsigned)plm[i].ex_user &&
                  a.exclude_kernel == (unsigned)plm[i].ex_kernel &&
                  a.exclude_hv == (unsigned)plm[i].ex_hv,
              "%s in domain 0x%x: exclude user %u kernel %u hv %u, want %d %d %d", plm[i].name,
              plm[i].domain, a.exclude_user, a.exclude_kernel, a.exclude_hv, plm[i].ex_user,
              plm[i].ex_kernel, plm[i].ex_hv);
    }

    /* An uncore PMU (it has a cpumask) belongs to perf_event_uncore. */
    unsigned type;
    unsigned long long config;
    int cidx = -1, uncore = PAPI_get_component_index("perf_event_uncore");
    CHECK(encoding("amd_l3::event=0x04,umask=0xff", &type, &config, &cidx) == 0,
          "amd_l3 raw event does not resolve");
    CHECK(type == 9 && config == 0xff04 && cidx == uncore, "amd_l3: type %u config 0x%llx cmp %d",
          type, config, cidx);

    /* Refusals say why (the detail comes from the library's last error). */
    static const struct { const char *name, *why; } bad[] = {
        {"cpu::event=0x1000", "does not fit"},   /* 13 bits into 12 */
        {"cpu::umask=0x100", "does not fit"},
        {"cpu::bogus=1", "no field 'bogus'"},
        {"cpu::event=zz", "must be a number"},
        {"cpu::config= -1", "must be a number"}, /* no sign, no space, as perf */
        {"cpu::config=-1", "must be a number"},
        {"cpu::event= 1", "must be a number"},
        {"cpu::event=+1", "must be a number"},
        {"cpu::event=0x", "must be a number"},
        {"cpu::event=08x", "must be a number"},
        {"cpu::config=18446744073709551616", "must be a number"}, /* 2^64 */
        {"cpu::config=0x10000000000000000", "must be a number"},
        {"cpu::instructions:x", "unknown modifier"},
        {"cpu::no-such-event", "has no event"},
        {"nopmu::event=1", "no PMU called 'nopmu'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int code;
        CHECK_RET(PAPI_event_name_to_code(bad[i].name, &code), PAPI_ENOEVNT);
        const char *detail = papi_last_error_detail();
        CHECK(strstr(detail, bad[i].why) != NULL, "%s: reason '%s' does not say '%s'", bad[i].name,
              detail, bad[i].why);
    }

    /* The listing: the recorded core PMU's named events, with the route. */
    int code = PAPI_NATIVE_MASK, seen = 0;
    int core = PAPI_get_component_index("perf_event");
    if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, core) == PAPI_OK) {
        do {
            PAPI_event_info_t info;
            if (PAPI_get_event_info(code, &info) == PAPI_OK && !strcmp(info.symbol, "cpu::cpu-cycles"))
                seen = strstr(info.note, "sysfs") != NULL && strstr(info.long_descr, "config 0x76");
        } while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, core) == PAPI_OK);
    }
    CHECK(seen, "cpu::cpu-cycles is not listed with its route and encoding");
    PAPI_shutdown();
    return test_done("test_sysfs_events");
}
