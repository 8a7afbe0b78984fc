/* sample_work.c: known shapes of work for papi_run --sample (check_sample.py).
 *   split N     work_a does 3 units for each of work_b's 1 (N units of 1e6 steps)
 *   recurse D   descend D frames of descend(), then spin in the deepest
 *   threads N   two threads spin in thread_work, a forked child in child_work (N units
 *               each), the main thread waits
 *   split N S   as split, then exit with status S
 *   ladder N    recurse to each depth 1 to 20 in turn, N units at each: 20 distinct stacks
 *   syscalls N  sys_work makes N * 100000 write() system calls to /dev/null itself (the
 *               instruction inline: no libc wrapper frame between it and the kernel)
 *   exec N HOW  pre_exec_work spins N units, then the process execs itself (HOW: execv,
 *               execvp, execl or execve) as "after N", where post_exec_work spins N units;
 *               HOW fail: an execv that fails, then post_exec_work in the same image
 * Built with frame pointers and no inlining, so every function keeps its frame. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void spin(long units)
{
    unsigned long x = sink;
    for (long i = 0; i < units * 1000000L; i++)
        x = x * 6364136223846793005UL + 1442695040888963407UL;
    sink = x;
}

__attribute__((noinline)) void work_a(long units)
{
    unsigned long x = sink;
    for (long i = 0; i < units * 1000000L; i++)
        x = x * 6364136223846793005UL + 1442695040888963407UL;
    sink = x;
}

__attribute__((noinline)) void work_b(long units)
{
    unsigned long x = sink;
    for (long i = 0; i < units * 1000000L; i++)
        x = x * 6364136223846793005UL + 1442695040888963407UL;
    sink = x;
}

__attribute__((noinline)) int descend(int depth, long units)
{
    if (depth <= 1) {
        spin(units);
        return 1;
    }
    int r = descend(depth - 1, units);
    sink += (unsigned long)r; /* work after the call: no tail call */
    return r + 1;
}

__attribute__((noinline)) void child_work(long units)
{
    spin(units);
}

__attribute__((noinline)) void *thread_work(void *arg)
{
    spin((long)arg);
    return NULL;
}

__attribute__((noinline)) void sys_work(long units)
{
    int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    static const char c = 0;
    for (long i = 0; fd >= 0 && i < units * 100000L; i++) {
#if defined(__x86_64__)
        long ret;
        __asm__ volatile("syscall"
                         : "=a"(ret)
                         : "a"((long)SYS_write), "D"((long)fd), "S"(&c), "d"(1L)
                         : "rcx", "r11", "memory");
#elif defined(__aarch64__)
        register long x8 __asm__("x8") = SYS_write;
        register long x0 __asm__("x0") = fd;
        register long x1 __asm__("x1") = (long)&c;
        register long x2 __asm__("x2") = 1;
        __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
#else
        if (write(fd, &c, 1) != 1)
            break;
#endif
    }
    if (fd >= 0)
        close(fd);
}

__attribute__((noinline)) void pre_exec_work(long units)
{
    spin(units);
}

__attribute__((noinline)) void post_exec_work(long units)
{
    spin(units);
}

extern char **environ;

static int exec_self(char **argv)
{
    char *const args[] = {argv[0], "after", argv[2], NULL};
    const char *how = argv[3];
    pre_exec_work(atol(argv[2]));
    if (strcmp(how, "execv") == 0)
        execv("/proc/self/exe", args);
    else if (strcmp(how, "execvp") == 0)
        execvp(argv[0], args);
    else if (strcmp(how, "execl") == 0)
        execl("/proc/self/exe", argv[0], "after", argv[2], (char *)NULL);
    else if (strcmp(how, "execve") == 0)
        execve("/proc/self/exe", args, environ);
    else if (strcmp(how, "fail") == 0 && execv("/nonexistent/sample_work", args) != 0) {
        post_exec_work(atol(argv[2]));
        return 0;
    }
    perror("sample_work: exec");
    return 1;
}

static int *volatile nowhere; /* crash: a fault the compiler cannot see coming */

int main(int argc, char **argv)
{
    if (argc < 3)
        return fprintf(stderr,
                       "usage: sample_work "
                       "split|recurse|ladder|threads|syscalls|exec|after|crash N [D|S|HOW]\n"),
               2;
    long n = atol(argv[2]);
    if (strcmp(argv[1], "split") == 0) {
        for (int round = 0; round < 10; round++) { /* interleaved: drift hits both alike */
            work_a(3 * n / 10);
            work_b(n / 10);
        }
        return argc > 3 ? atoi(argv[3]) : 0;
    } else if (strcmp(argv[1], "recurse") == 0) {
        return descend(argc > 3 ? atoi(argv[3]) : 50, n) > 0 ? 0 : 1;
    } else if (strcmp(argv[1], "threads") == 0) {
        pthread_t t[2];
        pid_t pid = fork();
        if (pid == 0) {
            child_work(n);
            _exit(0);
        }
        for (int i = 0; i < 2; i++)
            pthread_create(&t[i], NULL, thread_work, (void *)n);
        for (int i = 0; i < 2; i++)
            pthread_join(t[i], NULL);
        int st;
        waitpid(pid, &st, 0);
    } else if (strcmp(argv[1], "ladder") == 0) {
        for (int depth = 1; depth <= 20; depth++)
            descend(depth, n);
    } else if (strcmp(argv[1], "syscalls") == 0) {
        sys_work(n);
    } else if (strcmp(argv[1], "exec") == 0 && argc > 3) {
        return exec_self(argv);
    } else if (strcmp(argv[1], "after") == 0) {
        post_exec_work(n);
    } else if (strcmp(argv[1], "crash") == 0) { /* work_a, then a segmentation fault */
        work_a(n);
        *nowhere = 1;
    } else {
        return 2;
    }
    return 0;
}
