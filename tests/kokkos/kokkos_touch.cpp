/* kokkos_touch: a Kokkos program (Debian's Kokkos, Serial backend) for the PAPI Kokkos
 * connector's test (kokkos_touch THREADS PAGES). The kernel "touch" runs on the master
 * thread and starts THREADS std::threads that each touch PAGES fresh pages: its region
 * counts the master's own page faults, its all-thread total every thread's, at least
 * THREADS x PAGES. A first kernel "warm-up" takes the one-time costs (code pages, the
 * region counters). The profile region "phase" holds the kernel "master-touch", in which
 * the master itself touches PAGES pages, and a parallel_reduce "sum" and parallel_scan
 * "prefix" run beside them; a kernel with a 200-character label and a profile region
 * "left-open" that the program never pops come last. No PAPI call: the connector
 * (KOKKOS_PROFILE_LIBRARY) counts. */
#include <Kokkos_Core.hpp>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

static void touch(long pages)
{
    const long ps = sysconf(_SC_PAGESIZE);
    void *m = mmap(nullptr, (size_t)(pages * ps), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        std::abort();
    volatile char *p = static_cast<volatile char *>(m);
    for (long i = 0; i < pages; i++)
        p[i * ps] = 1;
    munmap(m, (size_t)(pages * ps));
}

static void threads_touch(int threads, long pages)
{
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; t++)
        pool.emplace_back(touch, pages);
    for (auto &t : pool)
        t.join();
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    const int threads = std::atoi(argv[1]);
    const long pages = std::atol(argv[2]);
    Kokkos::initialize(argc, argv);
    {
        Kokkos::parallel_for("warm-up", Kokkos::RangePolicy<>(0, 1),
                             [=](int) { threads_touch(threads, 1); });
        Kokkos::parallel_for("touch", Kokkos::RangePolicy<>(0, 1),
                             [=](int) { threads_touch(threads, pages); });
        Kokkos::Profiling::pushRegion("phase");
        Kokkos::parallel_for("master-touch", Kokkos::RangePolicy<>(0, 1),
                             [=](int) { touch(pages); });
        Kokkos::Profiling::popRegion();
        long sum = 0;
        Kokkos::parallel_reduce("sum", 100, [=](int i, long &s) { s += i; }, sum);
        Kokkos::parallel_scan("prefix", 100, [=](int i, long &s, bool) { s += i; });
        // A label past the region API's 127 characters (counted under its first 127),
        // and a profile region left open: Kokkos::finalize ends it.
        Kokkos::parallel_for(std::string(200, 'L'), 1, [=](int) {});
        Kokkos::Profiling::pushRegion("left-open");
        if (sum != 4950) {
            std::fprintf(stderr, "kokkos_touch: parallel_reduce gave %ld, not 4950\n", sum);
            return 1;
        }
    }
    Kokkos::finalize();
    return 0;
}
