/* vk_run: runs one of papi_validate's kernels n times, or lists them with their
 * instructions per iteration ("name lack|- per_iter"). Built for arm64 and run under
 * qemu-aarch64 -singlestep by check_kernels_qemu.py, which counts the instructions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate_kernels.h"

int main(int argc, char **argv)
{
    int nk;
    /* Small working sets: the ring's construction runs under -singlestep too. */
    struct vk_mem_sizes sizes = {16L << 10, 32L << 10, 64, 0};
    vk_mem_configure(&sizes);
    const struct vk_kernel *ks = vk_kernels(&nk);
    for (int i = 0; i < nk; i++) {
        const char *lack = vk_ready(&ks[i]);
        if (argc == 1) {
            printf("%s %s %g\n", ks[i].name, lack ? lack : "-",
                   lack ? 0 : vk_expected_per_iter(&ks[i], "PAPI_TOT_INS"));
        } else if (strcmp(argv[1], ks[i].name) == 0) {
            if (lack)
                return 3;
            ks[i].run(argc > 2 ? atol(argv[2]) : 1);
        }
    }
    return 0;
}
