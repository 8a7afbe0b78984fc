/* folded.c: flamegraph.pl's folded lines (folded.h). Frames may hold spaces (C++
 * signatures): a reader takes a line's weights from its end. */
#include <stdlib.h>
#include <string.h>

#include "folded.h"

void folded_line(FILE *f, const char *const *frame, size_t n, const uint64_t *w, int nw)
{
    for (size_t d = 0; d < n; d++) {
        if (d)
            fputc(';', f);
        fputs(frame[d], f);
    }
    for (int i = 0; i < nw; i++)
        fprintf(f, " %llu", (unsigned long long)w[i]);
    fputc('\n', f);
}

void folded_file_name(char *out, size_t len, const char *event, int first)
{
    if (first) {
        snprintf(out, len, "profile.folded");
        return;
    }
    snprintf(out, len, "profile.%s.folded", event);
    for (char *c = out + 8; *c; c++)
        if (!(*c == '-' || *c == '.' || *c == '_' || (*c >= '0' && *c <= '9') ||
              (*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z')))
            *c = '_';
}

uint32_t folded_crc32(uint32_t crc, const void *p, size_t n)
{
    const unsigned char *b = p;
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= b[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}
