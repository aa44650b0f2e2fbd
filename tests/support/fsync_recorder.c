/* An LD_PRELOAD shim for the power-loss test (tests/companion/test_store_power_loss.py).
 *
 * A pulled plug keeps only what reached the card, and only fsync() says what did. This shim
 * wraps fsync() and fdatasync(): when the descriptor is the database named by
 * $FSYNC_RECORD_DB or its -wal or -journal, it lets the real call return and then copies all
 * three files (those that exist) into $FSYNC_RECORD_DIR/<k>/, with an INFO file naming the
 * file just synced and each file's inode and size, and writes "FSYNC k\n" to standard output
 * with write(2). A child that prints "ACK n" (flushed) on the same descriptor after step n
 * thus interleaves its acknowledgements with the points, in order. Points are numbered from
 * $FSYNC_RECORD_FIRST (default 1), so several runs of a child can share one record.
 *
 * Build: cc -shared -fPIC -O2 -o fsync_recorder.so fsync_recorder.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *SUFFIXES[] = {"", "-wal", "-journal"};
static const char *NAMES[] = {"db", "db-wal", "db-journal"};
static long next_point = -1;

static void copy_file(const char *from, const char *to) {
    int in = open(from, O_RDONLY | O_CLOEXEC);
    if (in < 0) return;
    int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (out >= 0) {
        char buf[65536];
        ssize_t got;
        while ((got = read(in, buf, sizeof buf)) > 0) {
            for (ssize_t done = 0; done < got;) {
                ssize_t put = write(out, buf + done, (size_t)(got - done));
                if (put <= 0) { got = -1; break; }
                done += put;
            }
            if (got < 0) break;
        }
        close(out);
    }
    close(in);
}

/* Which watched file fd is (0 db, 1 -wal, 2 -journal), or -1. */
static int watched(int fd, const char *db) {
    char link[64], path[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    if (n <= 0) return -1;
    path[n] = '\0';
    size_t len = strlen(db);
    if (strncmp(path, db, len) != 0) return -1;
    for (int i = 0; i < 3; i++)
        if (strcmp(path + len, SUFFIXES[i]) == 0) return i;
    return -1;
}

static void record(int fd) {
    const char *dir = getenv("FSYNC_RECORD_DIR"), *db = getenv("FSYNC_RECORD_DB");
    if (!dir || !db) return;
    int which = watched(fd, db);
    if (which < 0) return;
    if (next_point < 0) {
        const char *first = getenv("FSYNC_RECORD_FIRST");
        next_point = first ? atol(first) : 1;
    }
    long k = next_point++;
    char point[PATH_MAX], from[PATH_MAX], to[PATH_MAX + 32], info[PATH_MAX + 200];
    snprintf(point, sizeof point, "%s/%06ld", dir, k);
    mkdir(point, 0700);
    int pos = snprintf(info, sizeof info, "synced %s\n", NAMES[which]);
    for (int i = 0; i < 3; i++) {
        struct stat st;
        snprintf(from, sizeof from, "%s%s", db, SUFFIXES[i]);
        if (stat(from, &st) != 0) continue;
        snprintf(to, sizeof to, "%s/%s", point, NAMES[i]);
        copy_file(from, to);
        pos += snprintf(info + pos, sizeof info - (size_t)pos, "file %s %lu %lld\n", NAMES[i],
                        (unsigned long)st.st_ino, (long long)st.st_size);
    }
    snprintf(to, sizeof to, "%s/INFO", point);
    int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (out >= 0) {
        if (write(out, info, (size_t)pos) < 0) { /* the test sees the INFO missing */ }
        close(out);
    }
    char line[64];
    int n = snprintf(line, sizeof line, "FSYNC %ld\n", k);
    if (write(1, line, (size_t)n) < 0) { /* the test sees the point missing */ }
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    int rc = real(fd);
    int saved = errno;
    if (rc == 0) record(fd);
    errno = saved;
    return rc;
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    int rc = real(fd);
    int saved = errno;
    if (rc == 0) record(fd);
    errno = saved;
    return rc;
}
