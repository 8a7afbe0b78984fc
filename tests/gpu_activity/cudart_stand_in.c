/* cudart_stand_in.c: a library named libcudart.so.13 (nothing of CUDA's in it): loaded by
 * the test, it tells the GPU activity layer where a CUDA runtime lies, beside which it
 * looks for libcupti. */
__attribute__((visibility("default"))) int cudart_stand_in(void)
{
    return 13;
}
