#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/sockios.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <errno.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "CPlatform.h"

int afp_start_writeback(int descriptor, off_t offset, off_t length) {
    return sync_file_range(descriptor, offset, length, SYNC_FILE_RANGE_WRITE);
}

int afp_reserve_space(int descriptor, off_t length) {
    return fallocate(descriptor, FALLOC_FL_KEEP_SIZE, 0, length);
}

int afp_sync_filesystem(int descriptor) {
    return syncfs(descriptor);
}

void afp_name_thread(const char *name) {
    pthread_setname_np(pthread_self(), name);
}

int afp_mark_thread_batch(void) {
    struct sched_param parameters = { 0 };
    return pthread_setschedparam(pthread_self(), SCHED_BATCH, &parameters);
}

int afp_open_anonymous(const char *directory, mode_t mode) {
    return open(directory, O_TMPFILE | O_RDWR | O_CLOEXEC, mode);
}

int afp_link_anonymous(int descriptor, const char *path) {
    char source[64];
    snprintf(source, sizeof source, "/proc/self/fd/%d", descriptor);
    return linkat(AT_FDCWD, source, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
}

int afp_rename_noreplace(const char *from, const char *to) {
    if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0) return 0;
    if (errno != EINVAL && errno != ENOSYS) return -1;
    // A file system without RENAME_NOREPLACE: a look, then the rename (a name that appears
    // between the two is replaced, as by rename alone).
    struct stat status;
    if (lstat(to, &status) == 0) {
        errno = EEXIST;
        return -1;
    }
    return rename(from, to);
}

int afp_unsent_bytes(int socket) {
    int unsent = 0;
    return ioctl(socket, SIOCOUTQ, &unsent) == 0 ? unsent : -1;
}
