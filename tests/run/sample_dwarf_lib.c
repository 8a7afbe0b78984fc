/* sample_dwarf_lib.c: a library sample_dwarf dlopens (check_sample_dwarf.py's dlopen
 * part), built -O2 -fomit-frame-pointer: its frames are found only once the unwinder has
 * read the process's maps again. */
static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long dl_spin(long units)
{
    unsigned long x = sink;
    for (long i = 0; i < units * 1000000L; i++)
        x = x * 6364136223846793005UL + 1442695040888963407UL;
    return x;
}

unsigned long dl_work(long units);
unsigned long dl_work(long units)
{
    unsigned long x = dl_spin(units);
    sink = x;
    return x ^ 3;
}
