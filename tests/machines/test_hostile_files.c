/* test_hostile_files: a recorded machine whose files are no files. The test writes two
 * trees at run time in TREE_DIR and replays each (PAPI_FSROOT) in a child process:
 *   dev_zero: proc/cpuinfo is a symbolic link to /dev/zero (a read that never ends);
 *   fifo:     perf_event_paranoid and a PMU's type file are FIFOs (an open that waits
 *             for a writer forever).
 * PAPI_library_init and PAPI_get_hardware_info must return within the time limit and
 * succeed, stderr must say which file was not read and why, and the tree's real PMU (cpu)
 * is still read. Both trees hung PAPI_library_init once. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "papi_test.h"

#define LIMIT_MS 20000

__attribute__((format(printf, 2, 3))) static void make(int kind, const char *fmt, ...)
{
    char path[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(path, sizeof path, fmt, ap);
    va_end(ap);
    int r = kind == 'd'   ? mkdir(path, 0755)
            : kind == 'p' ? mkfifo(path, 0644)
            : kind == 'z' ? symlink("/dev/zero", path)
                          : -1;
    if (r != 0 && errno != EEXIST) {
        fprintf(stderr, "cannot make %s: %s\n", path, strerror(errno));
        exit(1);
    }
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
        exit(1);
    }
}

/* root with the core PMU cpu (type 4, one event), proc/ and proc/sys/kernel/. */
static void base_tree(const char *root)
{
    static const char *const dirs[] = {"",
                                       "/proc",
                                       "/proc/sys",
                                       "/proc/sys/kernel",
                                       "/sys",
                                       "/sys/bus",
                                       "/sys/bus/event_source",
                                       "/sys/bus/event_source/devices",
                                       "/sys/bus/event_source/devices/cpu",
                                       "/sys/bus/event_source/devices/cpu/format",
                                       "/sys/bus/event_source/devices/cpu/events"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        make('d', "%s%s", root, dirs[i]);
    char p[4096];
    snprintf(p, sizeof p, "%s/sys/bus/event_source/devices/cpu/type", root);
    put(p, "4\n");
    snprintf(p, sizeof p, "%s/sys/bus/event_source/devices/cpu/format/event", root);
    put(p, "config:0-7\n");
    snprintf(p, sizeof p, "%s/sys/bus/event_source/devices/cpu/events/cpu-cycles", root);
    put(p, "event=0x76\n");
}

/* The child: replay root, initialise, ask the hardware information (cpuinfo) and the tree's
 * core PMU's event. */
static int child(const char *root, const char *errpath)
{
    int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || dup2(fd, 2) < 0)
        return 3;
    setenv("PAPI_FSROOT", root, 1);
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
        return 2;
    if (!PAPI_get_hardware_info()) /* reads the recorded cpuinfo */
        return 5;
    int code;
    return PAPI_event_name_to_code("cpu::cpu-cycles", &code) == PAPI_OK ? 0 : 4;
}

static long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

/* Replay root in a child, killed past LIMIT_MS; its stderr must contain want. */
static void replay(const char *root, const char *want)
{
    char errpath[4096];
    snprintf(errpath, sizeof errpath, "%s.stderr", root);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        _exit(child(root, errpath));
    int status = 0;
    long start = now_ms();
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (now_ms() - start > LIMIT_MS) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            CHECK(0, "%s: PAPI_library_init or PAPI_get_hardware_info still running after %d ms",
                  root, LIMIT_MS);
            return;
        }
        usleep(10000);
    }
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "%s: child status 0x%x (2: init failed, 4: cpu::cpu-cycles not found, 5: no hardware "
          "information)",
          root, status);
    char text[4096] = "";
    FILE *f = fopen(errpath, "r");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    text[n] = '\0';
    if (f)
        fclose(f);
    CHECK(strstr(text, want) != NULL, "%s: stderr does not say '%s': '%s'", root, want, text);
    printf("%s: init took %ld ms; said: %s", root, now_ms() - start, text);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        test_skip("usage: test_hostile_files TREE_DIR (ctest gives its binary directory)");
    char root[1024], path[4096];

    snprintf(root, sizeof root, "%s/hostile_dev_zero", argv[1]);
    base_tree(root);
    snprintf(path, sizeof path, "%s/proc/sys/kernel/perf_event_paranoid", root);
    put(path, "2\n");
    make('z', "%s/proc/cpuinfo", root);
    snprintf(path, sizeof path, "%s/proc/cpuinfo is not read: it is a device", root);
    replay(root, path);

    snprintf(root, sizeof root, "%s/hostile_fifo", argv[1]);
    base_tree(root);
    make('p', "%s/proc/sys/kernel/perf_event_paranoid", root);
    make('d', "%s/sys/bus/event_source/devices/fifo_pmu", root);
    make('p', "%s/sys/bus/event_source/devices/fifo_pmu/type", root);
    replay(root, "is not read: it is a FIFO");
    return test_done("test_hostile_files");
}
