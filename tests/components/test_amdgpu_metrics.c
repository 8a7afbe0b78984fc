/* test_amdgpu_metrics: the amdgpu component's gpu_metrics events
 * (src-c/lib/components/gpu/amdgpu_metrics.c) on the recorded tree
 * (tests/machines/amdgpu_node, argv[1]) copied and replayed through PAPI_FSROOT, with
 * gpu_metrics files this test builds from known values at the kernel's offsets: card0 a
 * discrete GPU's v1.3 (temperatures in C, power in W, energy in 2^-16 J), card1 an APU's
 * v2.2 (temperatures in 0.01 C, power in mW); fields left all ones, as the driver leaves
 * those the firmware does not fill, are not listed. Exact values in the component's
 * units (mC, uW, Hz, uJ) rewritten between PAPI_start and PAPI_read; the energy counted
 * from PAPI_start; a file cut short and a revision changed while counting fail the read
 * with the file and the reason; at PAPI_library_init an unknown revision and a truncated
 * file each give one clause of the caveat line, their cards' other events listed. MI300's
 * v1.5 and v1.4 (per-instance clocks, XGMI traffic counted from PAPI_start in bytes) and
 * an APU's v2.4 (activity in hundredths of a percent) read exactly too. */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "papi.h"
#include "expect_reason.h"
#include "papi_test.h"
#include "test_tree.h"

#define A     "amdgpu:::"
#define CARD0 "sys/class/drm/card0/device/"
#define CARD1 "sys/class/drm/card1/device/"

static char scratch[512];

/* A gpu_metrics file: the header, every field all ones, then the fields set. */
struct blob {
    uint8_t b[512];
    size_t n;
};

static void blob_init(struct blob *m, int format, int content, size_t size)
{
    memset(m->b, 0xff, sizeof m->b);
    uint16_t s = (uint16_t)size;
    memcpy(m->b, &s, 2);
    m->b[2] = (uint8_t)format;
    m->b[3] = (uint8_t)content;
    m->n = size;
}

static void set16(struct blob *m, size_t off, uint16_t v)
{
    memcpy(m->b + off, &v, 2);
}

static void set64(struct blob *m, size_t off, uint64_t v)
{
    memcpy(m->b + off, &v, 8);
}

/* Write the first n bytes of m as rel under the root in force. */
static void blob_put(const char *rel, const struct blob *m, size_t n)
{
    char p[2048];
    snprintf(p, sizeof p, "%s/%s", tree_root, rel);
    FILE *f = fopen(p, "wb");
    CHECK(f != NULL, "write %s", p);
    if (f) {
        CHECK(fwrite(m->b, 1, n, f) == n, "write %s", p);
        fclose(f);
    }
}

/* card0, v1.3 (struct gpu_metrics_v1_3, 120 bytes): temperatures (C) at 4.., activity
 * at 16.., socket power (W) at 22, the energy accumulator at 24, current_gfxclk (MHz) at
 * 54, temperature_hbm_0 at 88, voltage_gfx (mV) at 106. */
static void card0_v13(int activity, uint64_t energy)
{
    struct blob m;
    blob_init(&m, 1, 3, 120);
    set16(&m, 4, 45);
    set16(&m, 6, 60);
    set16(&m, 16, (uint16_t)activity);
    set16(&m, 18, 42);
    set16(&m, 22, 350);
    set64(&m, 24, energy);
    set16(&m, 54, 1700);
    set16(&m, 88, 66);
    set16(&m, 106, 850);
    blob_put(CARD0 "gpu_metrics", &m, m.n);
}

/* card1, v2.2 (struct gpu_metrics_v2_2, 128 bytes) or v2.1 (120): temperature_gfx
 * (0.01 C) at 4, average_gfx_activity at 28, average_socket_power (mW) at 40,
 * average_gfx_power at 46, average_fclk_frequency at 70, current_gfxclk at 76. */
static void card1_v2(int content, int temp_cc, size_t cut)
{
    struct blob m;
    blob_init(&m, 2, content, content == 2 ? 128 : 120);
    set16(&m, 4, (uint16_t)temp_cc);
    set16(&m, 28, 25);
    set16(&m, 40, 15000);
    set16(&m, 46, 9000);
    set16(&m, 70, 1600);
    set16(&m, 76, 2200);
    blob_put(CARD1 "gpu_metrics", &m, cut ? cut : m.n);
}

static void test_table(void)
{
    static const struct {
        const char *event, *units, *descr;
    } info[] = {
        {A "card0:gpu_metrics:temperature_edge", "mC", "(gpu_metrics v1.3, card0)"},
        {A "card0:gpu_metrics:average_gfx_activity", "%", "graphics engine activity"},
        {A "card0:gpu_metrics:average_umc_activity", "%", "memory controller activity"},
        {A "card0:gpu_metrics:average_socket_power", "uW", "average socket power"},
        {A "card0:gpu_metrics:energy_accumulator", "uJ", "energy, in microjoules"},
        {A "card0:gpu_metrics:current_gfxclk", "Hz", "clock, in Hz"},
        {A "card0:gpu_metrics:temperature_hbm_0", "mC", "temperature"},
        {A "card0:gpu_metrics:voltage_gfx", "mV", "graphics voltage"},
        {A "card1:gpu_metrics:temperature_gfx", "mC", "(gpu_metrics v2.2, card1)"},
        {A "card1:gpu_metrics:average_gfx_power", "uW", "average graphics power"},
        {A "card1:gpu_metrics:average_fclk_frequency", "Hz", "clock"},
    };
    for (size_t i = 0; i < sizeof info / sizeof info[0]; i++) {
        PAPI_event_info_t ev;
        event_info_of(info[i].event, &ev);
        CHECK(strcmp(ev.units, info[i].units) == 0 && strstr(ev.long_descr, info[i].descr),
              "%s: units '%s' descr '%s'", info[i].event, ev.units, ev.long_descr);
    }
    /* all ones: not filled by this GPU's firmware, so not listed */
    static const char *const absent[] = {
        A "card0:gpu_metrics:temperature_vrmem", A "card0:gpu_metrics:average_mm_activity",
        A "card0:gpu_metrics:temperature_hbm_1", A "card1:gpu_metrics:average_mm_activity",
        A "card1:gpu_metrics:energy_accumulator"};
    for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++) {
        int code;
        CHECK(PAPI_event_name_to_code(absent[i], &code) != PAPI_OK, "%s is listed", absent[i]);
    }
    const char *caveat = PAPI_get_component_reason(PAPI_get_component_index("amdgpu"));
    CHECK(!caveat || !strstr(caveat, "gpu_metrics"), "a caveat for good files: '%s'", caveat);
}

static void test_values(void)
{
    const char *const evs[] = {
        A "card0:gpu_metrics:average_gfx_activity", A "card0:gpu_metrics:temperature_edge",
        A "card0:gpu_metrics:average_socket_power", A "card0:gpu_metrics:energy_accumulator",
        A "card0:gpu_metrics:current_gfxclk",       A "card0:gpu_metrics:voltage_gfx",
        A "card1:gpu_metrics:temperature_gfx",      A "card1:gpu_metrics:average_socket_power",
        A "card1:gpu_metrics:average_gfx_activity", A "card1:gpu_metrics:current_gfxclk"};
    long long v[10];
    int es = named_set(evs, 10);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    card0_v13(93, 1000000 + 3 * 65536); /* 3 J more: 3000000 uJ */
    card1_v2(2, 5150, 0);
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    const long long want[10] = {93,  45000, 350000000, 3000000, 1700000000,
                                850, 51500, 15000000,  25,      2200000000LL};
    expect_values(evs, v, want, 10);
    card0_v13(93, 1000000 + 3 * 65536 + 1000); /* 1000 steps of 2^-16 J: 15258 uJ */
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK(v[3] == 3015258, "energy %lld, want 3015258 uJ", v[3]);
    free_set(&es);
}

/* While counting: card0's file cut to 60 bytes, card1's now of revision 2.1. */
static void test_broken_while_counting(void)
{
    long long v[1];
    int es0 = PAPI_NULL, es1 = PAPI_NULL;
    const char *e0 = A "card0:gpu_metrics:average_gfx_activity";
    const char *e1 = A "card1:gpu_metrics:temperature_gfx";
    es0 = named_set(&e0, 1);
    es1 = named_set(&e1, 1);
    CHECK_RET(PAPI_start(es0), PAPI_OK);
    struct blob m;
    blob_init(&m, 1, 3, 120);
    blob_put(CARD0 "gpu_metrics", &m, 60);
    CHECK_RET(PAPI_read(es0, v), PAPI_ESYS);
    CHECK_RET(PAPI_stop(es0, v), PAPI_ESYS);
    expect_reason("truncated",
                  "card0/device/gpu_metrics: gpu_metrics v1.3 holds 60 bytes (its header says "
                  "120), the revision's fields take 120: truncated",
                  NULL);
    CHECK_RET(PAPI_stop(es0, v), PAPI_OK);
    CHECK_RET(PAPI_start(es1), PAPI_OK);
    card1_v2(1, 5150, 0);
    CHECK_RET(PAPI_read(es1, v), PAPI_ESYS);
    CHECK_RET(PAPI_stop(es1, v), PAPI_ESYS);
    expect_reason("changed",
                  "gpu_metrics is now of revision 2.1, not the one its events were listed from",
                  NULL);
    CHECK_RET(PAPI_stop(es1, v), PAPI_OK);
    free_set(&es0);
    free_set(&es1);
}

/* At PAPI_library_init: card0 of an unknown revision (1.9), card1 cut to 40 bytes. */
static void test_unknown_and_truncated(void)
{
    struct blob m;
    blob_init(&m, 1, 9, 120);
    blob_put(CARD0 "gpu_metrics", &m, m.n);
    card1_v2(2, 5150, 40);
    init_or_die();
    int cidx = PAPI_get_component_index("amdgpu"), code;
    const char *caveat = PAPI_get_component_reason(cidx);
    printf("caveat: %s\n", caveat ? caveat : "(none)");
    CHECK(!PAPI_get_component_info(cidx)->disabled, "amdgpu disabled: %s", caveat);
    CHECK(caveat && strstr(caveat, "card0: gpu_metrics is of revision 1.9 (format_revision 1, "
                                   "content_revision 9), which this build does not decode (it "
                                   "knows 1.1-1.5, 2.1-2.4)"),
          "unknown revision: '%s'", caveat ? caveat : "");
    CHECK(caveat && strstr(caveat, "card1: gpu_metrics v2.2 holds 40 bytes (its header says "
                                   "128), the revision's fields take 128: truncated"),
          "truncated: '%s'", caveat ? caveat : "");
    CHECK(caveat && !strpbrk(caveat, "\r\n"), "the caveat spans lines");
    CHECK(PAPI_event_name_to_code(A "card0:gpu_metrics:average_gfx_activity", &code) != PAPI_OK &&
              PAPI_event_name_to_code(A "card1:gpu_metrics:temperature_gfx", &code) != PAPI_OK,
          "events of a file not decoded are listed");
    CHECK_RET(PAPI_event_name_to_code(A "card0:power1_average", &code), PAPI_OK);
    CHECK_RET(PAPI_event_name_to_code(A "card1:power1_input", &code), PAPI_OK);
    PAPI_shutdown();
}

/* MI300's revisions: card0 v1.5 (360 bytes: energy at 88, XGMI read counters at 176,
 * clocks at 312), card1 v1.4 (288 bytes: energy at 24, XGMI write counters at 168,
 * clocks at 240); then card1 an APU's v2.4 (168 bytes, activity in 0.01 %). */
static void card0_v15(uint64_t energy, uint64_t xgmi_read_kib)
{
    struct blob m;
    blob_init(&m, 1, 5, 360);
    set16(&m, 4, 70);   /* temperature_hotspot */
    set16(&m, 10, 550); /* curr_socket_power, W */
    set16(&m, 12, 99);  /* average_gfx_activity */
    set16(&m, 16, 5);   /* vcn_activity[0] */
    set64(&m, 88, energy);
    set64(&m, 176, xgmi_read_kib); /* xgmi_read_data_acc[0] */
    set16(&m, 312, 2100);          /* current_gfxclk[0] */
    set16(&m, 314, 2050);          /* current_gfxclk[1] */
    set16(&m, 352, 1300);          /* current_uclk */
    blob_put(CARD0 "gpu_metrics", &m, m.n);
}

static void card1_v14(uint64_t xgmi_write_kib)
{
    struct blob m;
    blob_init(&m, 1, 4, 288);
    set16(&m, 6, 80); /* temperature_mem */
    set64(&m, 24, 0);
    set64(&m, 168 + 7 * 8, xgmi_write_kib); /* xgmi_write_data_acc[7] */
    set16(&m, 240, 1900);                   /* current_gfxclk[0] */
    set16(&m, 280, 1200);                   /* current_uclk */
    blob_put(CARD1 "gpu_metrics", &m, m.n);
}

static void test_mi300(void)
{
    card0_v15(500000, 1000);
    card1_v14(500);
    init_or_die();
    PAPI_event_info_t ev;
    int code;
    event_info_of(A "card0:gpu_metrics:xgmi_read_data_acc_0", &ev);
    CHECK(strcmp(ev.units, "B") == 0 && strstr(ev.long_descr, "(gpu_metrics v1.5, card0)"),
          "xgmi: units '%s' descr '%s'", ev.units, ev.long_descr);
    event_info_of(A "card1:gpu_metrics:current_gfxclk_0", &ev);
    CHECK(strcmp(ev.units, "Hz") == 0 && strstr(ev.long_descr, "(gpu_metrics v1.4, card1)"),
          "clock: units '%s' descr '%s'", ev.units, ev.long_descr);
    CHECK(PAPI_event_name_to_code(A "card0:gpu_metrics:current_gfxclk_2", &code) != PAPI_OK,
          "an instance left all ones is listed");
    const char *const evs[] = {
        A "card0:gpu_metrics:temperature_hotspot",  A "card0:gpu_metrics:curr_socket_power",
        A "card0:gpu_metrics:average_gfx_activity", A "card0:gpu_metrics:vcn_activity_0",
        A "card0:gpu_metrics:energy_accumulator",   A "card0:gpu_metrics:xgmi_read_data_acc_0",
        A "card0:gpu_metrics:current_gfxclk_1",     A "card0:gpu_metrics:current_uclk",
        A "card1:gpu_metrics:temperature_mem",      A "card1:gpu_metrics:xgmi_write_data_acc_7",
        A "card1:gpu_metrics:current_gfxclk_0",     A "card1:gpu_metrics:current_uclk"};
    long long v[12];
    int es = named_set(evs, 12);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    card0_v15(500000 + 65536, 3000); /* 1 J; 2000 KiB read */
    card1_v14(600);                  /* 100 KiB written */
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    const long long want[12] = {70000,      550000000,  99,    5,      1000000,    2048000,
                                2050000000, 1300000000, 80000, 102400, 1900000000, 1200000000};
    expect_values(evs, v, want, 12);
    free_set(&es);
    PAPI_shutdown();

    struct blob m;
    blob_init(&m, 2, 4, 168);
    set16(&m, 4, 4000);  /* temperature_gfx, 0.01 C */
    set16(&m, 28, 4525); /* average_gfx_activity, 0.01 % */
    blob_put(CARD1 "gpu_metrics", &m, m.n);
    init_or_die();
    const char *const apu[] = {A "card1:gpu_metrics:temperature_gfx",
                               A "card1:gpu_metrics:average_gfx_activity"};
    event_info_of(apu[1], &ev);
    CHECK(strcmp(ev.units, "0.01%") == 0 && strstr(ev.long_descr, "(gpu_metrics v2.4, card1)"),
          "v2.4 activity: units '%s' descr '%s'", ev.units, ev.long_descr);
    es = named_set(apu, 2);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    const long long want_apu[2] = {40000, 4525};
    expect_values(apu, v, want_apu, 2);
    free_set(&es);
    PAPI_shutdown();
}

int main(int argc, char **argv)
{
    tree_scratch(argc, "test_amdgpu_metrics", "tests/machines/amdgpu_node", scratch,
                 sizeof scratch);
    tree_use(argv[1], scratch, "root");
    card0_v13(87, 1000000);
    card1_v2(2, 5150, 0);
    init_or_die();
    int cidx = PAPI_get_component_index("amdgpu");
    CHECK(cidx >= 0 && !PAPI_get_component_info(cidx)->disabled, "amdgpu disabled: %s",
          cidx >= 0 ? PAPI_get_component_reason(cidx) : "no such component");
    if (cidx >= 0) {
        test_table();
        test_values();
        test_broken_while_counting();
    }
    PAPI_shutdown();
    test_unknown_and_truncated();
    test_mi300();
    remove_tree(scratch);
    return test_done("test_amdgpu_metrics");
}
