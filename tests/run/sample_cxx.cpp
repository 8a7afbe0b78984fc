// sample_cxx.cpp: a C++ method for papi_run --sample's demangling (check_sample.py cxx):
// its frames must read "shapes::Crunch::run(long)".
#include <cstdlib>

namespace shapes {
struct Crunch {
    unsigned long state = 1;
    __attribute__((noinline)) void run(long units);
};

void Crunch::run(long units)
{
    for (long i = 0; i < units * 1000000L; i++)
        state = state * 6364136223846793005UL + 1442695040888963407UL;
}
} // namespace shapes

int main(int argc, char **argv)
{
    shapes::Crunch c;
    c.run(argc > 1 ? std::atol(argv[1]) : 50);
    return c.state == 0;
}
