/* The C TCP ping-pong anchor of `make bench` (Benchmarks/): the round trip a minimal program gets for the same
 * message sizes as a move and its answer.
 *
 *   pingpong server PORT                 accept connections one after another on 0.0.0.0:PORT (0: any free port;
 *                                        prints "listening PORT"); answer every
 *                                        REQ-byte request with REPLY bytes (sizes from the client's first 8 bytes)
 *   pingpong client HOST PORT REQ_BYTES REPLY_BYTES N WARMUP OUT_FILE
 *                                        WARMUP + N round trips; writes the N round-trip times in ns, one per line
 *
 * TCP_NODELAY on both sides, blocking sockets, clock_gettime(CLOCK_MONOTONIC) around each write -> read of the full
 * reply. IPv4. Built by the bench driver with `cc -O2`. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what) { perror(what); exit(1); }

static int full_read(int fd, char *buf, size_t n) {
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r <= 0) return -1;
        got += (size_t)r;
    }
    return 0;
}

static int full_write(int fd, const char *buf, size_t n) {
    size_t put = 0;
    while (put < n) {
        ssize_t w = write(fd, buf + put, n - put);
        if (w <= 0) return -1;
        put += (size_t)w;
    }
    return 0;
}

static void nodelay(int fd) {
    int one = 1;
    if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0) die("TCP_NODELAY");
}

static _Noreturn void server(int port) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0) die("socket");
    int one = 1;
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port), .sin_addr.s_addr = htonl(INADDR_ANY)};
    if (bind(s, (struct sockaddr *)&a, sizeof a) != 0) die("bind");
    if (listen(s, 8) != 0) die("listen");
    socklen_t len = sizeof a;
    if (getsockname(s, (struct sockaddr *)&a, &len) != 0) die("getsockname");
    printf("listening %d\n", ntohs(a.sin_port));
    fflush(stdout);
    for (;;) {
        int c = accept(s, NULL, NULL);
        if (c < 0) die("accept");
        nodelay(c);
        uint32_t sizes[2];
        if (full_read(c, (char *)sizes, sizeof sizes) != 0) { close(c); continue; }
        size_t req = ntohl(sizes[0]), rep = ntohl(sizes[1]);
        if (req == 0 || rep == 0 || req > 65536 || rep > 65536) { close(c); continue; }
        char *in = calloc(1, req), *out = calloc(1, rep);
        while (full_read(c, in, req) == 0 && full_write(c, out, rep) == 0) {}
        free(in); free(out);
        close(c);
    }
}

static int client(const char *host, int port, size_t req, size_t rep, long n, long warmup, const char *path) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0) die("socket");
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    if (inet_pton(AF_INET, host, &a.sin_addr) != 1) { fprintf(stderr, "bad IPv4 address %s\n", host); return 2; }
    int tries = 0;
    while (connect(s, (struct sockaddr *)&a, sizeof a) != 0) {
        if (++tries > 200) die("connect");
        close(s); s = socket(AF_INET, SOCK_STREAM, 0);
        usleep(10000);
    }
    nodelay(s);
    uint32_t sizes[2] = {htonl((uint32_t)req), htonl((uint32_t)rep)};
    if (full_write(s, (char *)sizes, sizeof sizes) != 0) die("write sizes");
    char *out = calloc(1, req), *in = calloc(1, rep);
    out[0] = 0; if (req > 1) out[1] = (char)(req - 2);
    uint64_t *ns = calloc((size_t)n, sizeof *ns);
    for (long i = 0; i < warmup + n; i++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        if (full_write(s, out, req) != 0) die("write");
        if (full_read(s, in, rep) != 0) die("read");
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (i >= warmup)
            ns[i - warmup] = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000ull + (uint64_t)(t1.tv_nsec - t0.tv_nsec);
    }
    close(s);
    FILE *f = fopen(path, "w");
    if (!f) die(path);
    for (long i = 0; i < n; i++) fprintf(f, "%llu\n", (unsigned long long)ns[i]);
    fclose(f);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "server") == 0) server(atoi(argv[2]));
    if (argc == 9 && strcmp(argv[1], "client") == 0)
        return client(argv[2], atoi(argv[3]), (size_t)atol(argv[4]), (size_t)atol(argv[5]), atol(argv[6]),
                      atol(argv[7]), argv[8]);
    fprintf(stderr, "usage: %s server PORT | client HOST PORT REQ_BYTES REPLY_BYTES N WARMUP OUT_FILE\n", argv[0]);
    return 2;
}
