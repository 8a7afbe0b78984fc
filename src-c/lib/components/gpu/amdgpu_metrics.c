/* amdgpu_metrics.c: gpu_metrics decoded (amdgpu_metrics.h). Every revision begins with
 * the same 4-byte header (structure_size: u16, format_revision: u8, content_revision:
 * u8); the fields follow at the offsets of the kernel's naturally aligned structures.
 * Revisions 1.0 and 2.0 are not naturally aligned (the kernel itself advises against
 * them), and any this file has no table for (1.6+, 2.5+, 3.x) has another layout: each
 * is said by name, never decoded with a wrong layout. A field the firmware does not fill stays all ones (the
 * driver's initial value): such a field gives no value, never a made-up one. */
#include <stdio.h>
#include <string.h>

#include "amdgpu_metrics.h"

#define HEADER_BYTES 4

/* How a raw field becomes a value in the component's units. */
enum kind {
    K_TEMP_C,
    K_TEMP_CC,
    K_PCT,
    K_POWER_W,
    K_POWER_MW,
    K_MHZ,
    K_MV,
    K_RPM,
    K_ENERGY,
    K_KIB
};

struct fdef {
    struct amdgpu_metrics_field f;
    unsigned short off;
    /* first, last: the content revisions that have it in this form */
    unsigned char size, kind, first, last;
};

#define F16R(name, units, what, off, kind, first, last)   \
    {                                                     \
        {name, units, what, 0}, off, 2, kind, first, last \
    }
#define F16(name, units, what, off, kind, first) F16R(name, units, what, off, kind, first, 255)
#define ENERGY(off)                                                                        \
    {                                                                                      \
        {"energy_accumulator", "uJ", "energy, in microjoules (2^-16 J steps)", 1}, off, 8, \
            K_ENERGY, 1, 255                                                               \
    }
#define TEMP(name, off, kind, first) \
    F16(name, "mC", "temperature, in millidegrees Celsius", off, kind, first)
#define ACT(name, what, off)         F16(name, "%", what, off, K_PCT, 1)
#define POWER(name, what, off, kind) F16(name, "uW", what, off, kind, 1)
#define CLOCK(name, off)             F16(name, "Hz", "clock, in Hz", off, K_MHZ, 1)

/* struct gpu_metrics_v1_1 .. v1_3 (discrete GPUs): temperatures in C, power in W. */
static const struct fdef v1[] = {
    TEMP("temperature_edge", 4, K_TEMP_C, 1),
    TEMP("temperature_hotspot", 6, K_TEMP_C, 1),
    TEMP("temperature_mem", 8, K_TEMP_C, 1),
    TEMP("temperature_vrgfx", 10, K_TEMP_C, 1),
    TEMP("temperature_vrsoc", 12, K_TEMP_C, 1),
    TEMP("temperature_vrmem", 14, K_TEMP_C, 1),
    ACT("average_gfx_activity", "graphics engine activity, percent", 16),
    ACT("average_umc_activity", "memory controller activity, percent", 18),
    ACT("average_mm_activity", "multimedia (VCN) activity, percent", 20),
    POWER("average_socket_power", "average socket power, in microwatts", 22, K_POWER_W),
    ENERGY(24),
    CLOCK("average_gfxclk_frequency", 40),
    CLOCK("average_socclk_frequency", 42),
    CLOCK("average_uclk_frequency", 44),
    CLOCK("average_vclk0_frequency", 46),
    CLOCK("average_dclk0_frequency", 48),
    CLOCK("average_vclk1_frequency", 50),
    CLOCK("average_dclk1_frequency", 52),
    CLOCK("current_gfxclk", 54),
    CLOCK("current_socclk", 56),
    CLOCK("current_uclk", 58),
    CLOCK("current_vclk0", 60),
    CLOCK("current_dclk0", 62),
    CLOCK("current_vclk1", 64),
    CLOCK("current_dclk1", 66),
    F16("current_fan_speed", "RPM", "fan speed, in RPM", 72, K_RPM, 1),
    TEMP("temperature_hbm_0", 88, K_TEMP_C, 1),
    TEMP("temperature_hbm_1", 90, K_TEMP_C, 1),
    TEMP("temperature_hbm_2", 92, K_TEMP_C, 1),
    TEMP("temperature_hbm_3", 94, K_TEMP_C, 1),
    F16("voltage_soc", "mV", "SoC voltage, in millivolts", 104, K_MV, 3),
    F16("voltage_gfx", "mV", "graphics voltage, in millivolts", 106, K_MV, 3),
    F16("voltage_mem", "mV", "memory voltage, in millivolts", 108, K_MV, 3),
};

/* struct gpu_metrics_v2_1, v2_2 (APUs): temperatures in 0.01 C, power in mW. The CPU
 * cores' own temperatures, powers and clocks are left out: they are no GPU's. */
static const struct fdef v2[] = {
    TEMP("temperature_gfx", 4, K_TEMP_CC, 1),
    TEMP("temperature_soc", 6, K_TEMP_CC, 1),
    F16R("average_gfx_activity", "%", "graphics engine activity, percent", 28, K_PCT, 1, 3),
    F16R("average_mm_activity", "%", "multimedia (VCN) activity, percent", 30, K_PCT, 1, 3),
    /* 2.4 says its unit: hundredths of a percent, given as they are (as nvml's GPM) */
    F16("average_gfx_activity", "0.01%", "graphics engine activity, hundredths of a percent", 28,
        K_PCT, 4),
    F16("average_mm_activity", "0.01%", "multimedia (VCN) activity, hundredths of a percent", 30,
        K_PCT, 4),
    POWER("average_socket_power", "average socket (APU) power, in microwatts", 40, K_POWER_MW),
    POWER("average_cpu_power", "average CPU power, in microwatts", 42, K_POWER_MW),
    POWER("average_soc_power", "average SoC power, in microwatts", 44, K_POWER_MW),
    POWER("average_gfx_power", "average graphics power, in microwatts", 46, K_POWER_MW),
    CLOCK("average_gfxclk_frequency", 64),
    CLOCK("average_socclk_frequency", 66),
    CLOCK("average_uclk_frequency", 68),
    CLOCK("average_fclk_frequency", 70),
    CLOCK("average_vclk_frequency", 72),
    CLOCK("average_dclk_frequency", 74),
    CLOCK("current_gfxclk", 76),
    CLOCK("current_socclk", 78),
    CLOCK("current_uclk", 80),
    CLOCK("current_fclk", 82),
    CLOCK("current_vclk", 84),
    CLOCK("current_dclk", 86),
};

/* struct gpu_metrics_v1_4, v1_5 (MI300): temperatures in C, power in W, activity per
 * VCN, clocks per instance (XCD...), the XGMI links' traffic accumulated in KiB. The two
 * differ in where the energy (e), the XGMI counters (x) and the clocks (c) begin: 1.5
 * inserts the JPEG engines' activity and the PCIe NAK counts before them. */
#define XGMI(dir, i, off)                                                                    \
    {                                                                                        \
        {"xgmi_" dir "_data_acc_" #i, "B", "XGMI link " #i " " dir " traffic, in bytes", 1}, \
            off + 8 * i, 8, K_KIB, 1, 255                                                    \
    }
#define XGMI_LINKS(dir, x)                                                               \
    XGMI(dir, 0, x), XGMI(dir, 1, x), XGMI(dir, 2, x), XGMI(dir, 3, x), XGMI(dir, 4, x), \
        XGMI(dir, 5, x), XGMI(dir, 6, x), XGMI(dir, 7, x)
#define CLOCKS4(name, c) \
    CLOCK(name "_0", c), CLOCK(name "_1", c + 2), CLOCK(name "_2", c + 4), CLOCK(name "_3", c + 6)
#define CLOCKS8(name, c)                                                                           \
    CLOCKS4(name, c), CLOCK(name "_4", c + 8), CLOCK(name "_5", c + 10), CLOCK(name "_6", c + 12), \
        CLOCK(name "_7", c + 14)
#define MI300_FIELDS(e, x, c)                                                                   \
    TEMP("temperature_hotspot", 4, K_TEMP_C, 1), TEMP("temperature_mem", 6, K_TEMP_C, 1),       \
        TEMP("temperature_vrsoc", 8, K_TEMP_C, 1),                                              \
        POWER("curr_socket_power", "socket power, in microwatts", 10, K_POWER_W),               \
        ACT("average_gfx_activity", "graphics engine activity, percent", 12),                   \
        ACT("average_umc_activity", "memory controller activity, percent", 14),                 \
        ACT("vcn_activity_0", "VCN 0 activity, percent", 16),                                   \
        ACT("vcn_activity_1", "VCN 1 activity, percent", 18),                                   \
        ACT("vcn_activity_2", "VCN 2 activity, percent", 20),                                   \
        ACT("vcn_activity_3", "VCN 3 activity, percent", 22), ENERGY(e), XGMI_LINKS("read", x), \
        XGMI_LINKS("write", x + 64), CLOCKS8("current_gfxclk", c),                              \
        CLOCKS4("current_socclk", c + 16), CLOCKS4("current_vclk0", c + 24),                    \
        CLOCKS4("current_dclk0", c + 32), CLOCK("current_uclk", c + 40)

static const struct fdef v14[] = {MI300_FIELDS(24, 104, 240)};
static const struct fdef v15[] = {MI300_FIELDS(88, 176, 312)};

#define NFIELDS(a) ((int)(sizeof a / sizeof a[0]))

/* The revisions decoded: header values, the structure's size, its fields. */
static const struct layout {
    int format, content;
    size_t size;
    const struct fdef *fields;
    int nfields;
} layouts[] = {
    {1, 1, 96, v1, NFIELDS(v1)},    {1, 2, 104, v1, NFIELDS(v1)},   {1, 3, 120, v1, NFIELDS(v1)},
    {1, 4, 288, v14, NFIELDS(v14)}, {1, 5, 360, v15, NFIELDS(v15)}, {2, 1, 120, v2, NFIELDS(v2)},
    {2, 2, 128, v2, NFIELDS(v2)},   {2, 3, 152, v2, NFIELDS(v2)},   {2, 4, 168, v2, NFIELDS(v2)},
};
#define NLAYOUTS ((int)(sizeof layouts / sizeof layouts[0]))

const char *amdgpu_metrics_known(void)
{
    return "1.1-1.5, 2.1-2.4";
}

int amdgpu_metrics_header(const uint8_t *buf, size_t n, struct amdgpu_metrics_rev *rev)
{
    *rev = (struct amdgpu_metrics_rev){.layout = -1};
    if (n < HEADER_BYTES)
        return AMDGPU_METRICS_SHORT;
    uint16_t declared;
    memcpy(&declared, buf, sizeof declared); /* the kernel writes the machine's order */
    rev->declared = declared;
    rev->format = buf[2];
    rev->content = buf[3];
    for (int i = 0; i < NLAYOUTS; i++)
        if (layouts[i].format == rev->format && layouts[i].content == rev->content) {
            rev->layout = i;
            rev->need = layouts[i].size;
            return n < rev->need || declared < rev->need ? AMDGPU_METRICS_SHORT : 0;
        }
    return AMDGPU_METRICS_REVISION;
}

/* Field i of the layout: the i-th of its family's present in its content revision. */
static const struct fdef *field_def(int layout, int i)
{
    if (layout < 0 || layout >= NLAYOUTS || i < 0)
        return NULL;
    const struct layout *l = &layouts[layout];
    for (int k = 0; k < l->nfields; k++)
        if (l->fields[k].first <= l->content && l->content <= l->fields[k].last && i-- == 0)
            return &l->fields[k];
    return NULL;
}

const struct amdgpu_metrics_field *amdgpu_metrics_field(int layout, int i)
{
    const struct fdef *d = field_def(layout, i);
    return d ? &d->f : NULL;
}

static uint64_t convert(int kind, uint64_t raw)
{
    switch (kind) {
    case K_TEMP_C:
        return raw * 1000;
    case K_TEMP_CC:
        return raw * 10;
    case K_POWER_W:
    case K_MHZ:
        return raw * 1000000;
    case K_POWER_MW:
        return raw * 1000;
    case K_KIB:
        return raw * 1024;
    case K_ENERGY: /* 2^-16 J = 15625/1024 uJ, without overflow */
        return raw / 1024 * 15625 + raw % 1024 * 15625 / 1024;
    default:
        return raw;
    }
}

int amdgpu_metrics_value(int layout, int i, const uint8_t *buf, size_t n, uint64_t *value)
{
    struct amdgpu_metrics_rev rev;
    const struct fdef *d = field_def(layout, i);
    int err = amdgpu_metrics_header(buf, n, &rev);
    if (!d || (err != AMDGPU_METRICS_SHORT && rev.layout != layout))
        return AMDGPU_METRICS_CHANGED;
    if (err)
        return err;
    uint64_t raw;
    if (d->size == 2) {
        uint16_t v16;
        memcpy(&v16, buf + d->off, sizeof v16);
        raw = v16 == UINT16_MAX ? UINT64_MAX : v16;
    } else {
        memcpy(&raw, buf + d->off, sizeof raw);
    }
    if (raw == UINT64_MAX)
        return AMDGPU_METRICS_ABSENT;
    *value = convert(d->kind, raw);
    return 0;
}

void amdgpu_metrics_explain(int err, const struct amdgpu_metrics_rev *rev, size_t got, char *buf,
                            size_t len)
{
    switch (err) {
    case AMDGPU_METRICS_SHORT:
        if (rev->layout < 0)
            snprintf(buf, len,
                     "gpu_metrics holds %zu bytes, fewer than its %d-byte header "
                     "(truncated)",
                     got, HEADER_BYTES);
        else
            snprintf(buf, len,
                     "gpu_metrics v%d.%d holds %zu bytes (its header says %zu), the "
                     "revision's fields take %zu: truncated",
                     rev->format, rev->content, got, rev->declared, rev->need);
        break;
    case AMDGPU_METRICS_REVISION:
        snprintf(buf, len,
                 "gpu_metrics is of revision %d.%d (format_revision %d, "
                 "content_revision %d), which this build does not decode (it knows %s)",
                 rev->format, rev->content, rev->format, rev->content, amdgpu_metrics_known());
        break;
    case AMDGPU_METRICS_CHANGED:
        snprintf(buf, len,
                 "gpu_metrics is now of revision %d.%d, not the one its events were "
                 "listed from (the driver was reloaded?)",
                 rev->format, rev->content);
        break;
    case AMDGPU_METRICS_ABSENT:
        snprintf(buf, len, "this GPU does not fill the field (all ones in gpu_metrics v%d.%d)",
                 rev->format, rev->content);
        break;
    default:
        snprintf(buf, len, "gpu_metrics: error %d", err);
    }
}
