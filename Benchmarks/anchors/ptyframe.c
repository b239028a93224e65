/* The first-frame and idle timer of `make bench` (Benchmarks/): runs a terminal program on a new pty and watches its
 * output.
 *
 *   ptyframe frame COLS ROWS MARKER RUNS -- CMD ARGS...
 *       RUNS times: fork CMD on a new pty of COLSxROWS (TERM=xterm-256color unless set), read its output, and print
 *       the milliseconds from fork until the output contains MARKER (one line per run); then SIGTERM the child by
 *       pid (SIGKILL after 2 s) and waitpid. Exits 1 if MARKER never came (within 10 s).
 *   ptyframe idle COLS ROWS MARKER SECONDS -- CMD ARGS...
 *       once: wait for MARKER, then let the program sit for SECONDS (its output drained) and print the CPU time
 *       it used over those SECONDS in ms, twice: from every thread's /proc/PID/task/TID/schedstat (ns), and from
 *       utime + stime of /proc/PID/stat (clock ticks), then its VmHWM in kB.
 *
 * Built by the bench driver with `cc -O2`. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static pid_t spawn(int cols, int rows, char **cmd, int *master) {
    struct winsize ws = {.ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols};
    pid_t pid = forkpty(master, NULL, NULL, &ws);
    if (pid < 0) { perror("forkpty"); exit(2); }
    if (pid == 0) {
        if (!getenv("TERM")) setenv("TERM", "xterm-256color", 1);
        execvp(cmd[0], cmd);
        _exit(127);
    }
    return pid;
}

/* Reads from master until marker appears or timeout_ms passes; keeps a sliding window of the output. */
static int wait_marker(int master, const char *marker, double timeout_ms) {
    static char window[1 << 16];
    size_t have = 0, mlen = strlen(marker);
    double deadline = now_ms() + timeout_ms;
    for (;;) {
        int left = (int)(deadline - now_ms());
        if (left <= 0) return -1;
        struct pollfd p = {.fd = master, .events = POLLIN};
        int r = poll(&p, 1, left);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        if (have + 4096 > sizeof window) {  /* keep the tail only */
            size_t keep = mlen < have ? mlen : have;
            memmove(window, window + have - keep, keep);
            have = keep;
        }
        ssize_t n = read(master, window + have, 4096);
        if (n <= 0) return -1;
        have += (size_t)n;
        if (memmem(window, have, marker, mlen)) return 0;
    }
}

static void drain(int master, double ms) {
    char buf[4096];
    double deadline = now_ms() + ms;
    for (;;) {
        int left = (int)(deadline - now_ms());
        if (left <= 0) return;
        struct pollfd p = {.fd = master, .events = POLLIN};
        if (poll(&p, 1, left) > 0 && read(master, buf, sizeof buf) <= 0) {
            usleep((useconds_t)left * 1000);
            return;
        }
    }
}

static void stop(pid_t pid, int master) {
    kill(pid, SIGTERM);
    double deadline = now_ms() + 2000;
    int status;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (now_ms() > deadline) { kill(pid, SIGKILL); waitpid(pid, &status, 0); break; }
        drain(master, 5);
    }
    close(master);
}

static long cpu_ticks(pid_t pid) {
    char path[64], buf[4096];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    if (!p) return -1;
    /* after ") ": state(3) ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime(14) stime(15) */
    unsigned long utime = 0, stime = 0;
    if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) != 2) return -1;
    return (long)(utime + stime);
}

/* CPU time of every thread of pid in ns (/proc/PID/task/TID/schedstat, first field): finer than stat's ticks. */
static long long cpu_ns(pid_t pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *d = opendir(path);
    if (!d) return -1;
    long long total = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char file[300];
        snprintf(file, sizeof file, "/proc/%d/task/%s/schedstat", (int)pid, e->d_name);
        FILE *f = fopen(file, "r");
        if (!f) continue;
        long long ns = 0;
        if (fscanf(f, "%lld", &ns) == 1) total += ns;
        fclose(f);
    }
    closedir(d);
    return total;
}

static long vm_hwm_kb(pid_t pid) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    long kb = -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0) { kb = atol(line + 6); break; }
    fclose(f);
    return kb;
}

int main(int argc, char **argv) {
    if (argc < 8 || strcmp(argv[6], "--") != 0 || (strcmp(argv[1], "frame") && strcmp(argv[1], "idle"))) {
        fprintf(stderr, "usage: %s frame COLS ROWS MARKER RUNS -- CMD...\n       %s idle COLS ROWS MARKER SECONDS -- CMD...\n",
                argv[0], argv[0]);
        return 2;
    }
    int cols = atoi(argv[2]), rows = atoi(argv[3]);
    const char *marker = argv[4];
    char **cmd = argv + 7;
    signal(SIGPIPE, SIG_IGN);
    if (strcmp(argv[1], "frame") == 0) {
        int runs = atoi(argv[5]);
        for (int i = 0; i < runs; i++) {
            int master;
            double t0 = now_ms();
            pid_t pid = spawn(cols, rows, cmd, &master);
            int found = wait_marker(master, marker, 10000);
            double t1 = now_ms();
            stop(pid, master);
            if (found != 0) { fprintf(stderr, "ptyframe: no '%s' from %s within 10 s\n", marker, cmd[0]); return 1; }
            printf("%.3f\n", t1 - t0);
            fflush(stdout);
        }
        return 0;
    }
    double seconds = atof(argv[5]);
    int master;
    pid_t pid = spawn(cols, rows, cmd, &master);
    if (wait_marker(master, marker, 10000) != 0) {
        fprintf(stderr, "ptyframe: no '%s' from %s within 10 s\n", marker, cmd[0]);
        stop(pid, master);
        return 1;
    }
    drain(master, 200); /* the rest of the first frame */
    long before = cpu_ticks(pid);
    long long before_ns = cpu_ns(pid);
    drain(master, seconds * 1000);
    long after = cpu_ticks(pid);
    long long after_ns = cpu_ns(pid);
    long hwm = vm_hwm_kb(pid);
    stop(pid, master);
    long hz = sysconf(_SC_CLK_TCK);
    printf("%.3f %.3f %ld\n", (double)(after_ns - before_ns) / 1e6, (double)(after - before) * 1000.0 / (double)hz, hwm);
    return 0;
}
