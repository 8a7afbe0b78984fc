/* gpu_plain.c: a program with no PAPI in it that "uses CUDA" through the CUPTI double
 * (linked): it launches the records of argv[1] (cupti_double_launch), argv[2] times, and
 * exits without a flush; papi_run --gpu's preloaded library must file them
 * (check_papi_run_gpu.py), each launch's base said ("gpu_plain: base NS pid P": the moment
 * its times count from, on the traces' clock, and the process) for papi_run --trace's GPU
 * tracks. Without the
 * layer started, CUPTI has no buffers: it says so. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int cupti_double_launch(const char *path);
int cupti_double_subscribed(void);
uint64_t cupti_double_last_base(void);

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    if (!cupti_double_subscribed()) {
        printf("gpu_plain: nobody records the GPU activity\n");
        return 0;
    }
    for (int i = 0; i < atoi(argv[2]); i++) {
        usleep(1000); /* after the records before: no overlap by chance */
        if (cupti_double_launch(argv[1]) != 0) {
            fprintf(stderr, "gpu_plain: cannot read %s\n", argv[1]);
            return 1;
        }
        printf("gpu_plain: base %" PRIu64 " pid %ld\n", cupti_double_last_base(), (long)getpid());
    }
    printf("gpu_plain: launched %s %s times\n", argv[1], argv[2]);
    return 0;
}
