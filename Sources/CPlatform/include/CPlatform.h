// Linux calls the Glibc module does not expose to Swift (they need _GNU_SOURCE).
#ifndef AFGET_CPLATFORM_H
#define AFGET_CPLATFORM_H

#include <sys/types.h>
// fsetxattr and friends: resume data kept on a part file whose directory refuses new files.
#include <sys/xattr.h>

/// Starts writeback of a byte range without waiting for it (sync_file_range with
/// SYNC_FILE_RANGE_WRITE). Returns 0, or -1 with errno set (e.g. ESPIPE on a pipe).
int afp_start_writeback(int descriptor, off_t offset, off_t length);

/// Reserves disk space for the first `length` bytes without changing the file size
/// (fallocate with FALLOC_FL_KEEP_SIZE). Returns 0, or -1 with errno (EOPNOTSUPP on some file systems).
int afp_reserve_space(int descriptor, off_t length);

/// Writes out everything pending on the file system holding `descriptor` and flushes the
/// disk (syncfs). Returns 0, or -1 with errno (a writeback error on that file system).
int afp_sync_filesystem(int descriptor);

/// Names the calling thread (at most 15 bytes are kept), for `top -H` and debuggers.
void afp_name_thread(const char *name);

/// Marks the calling thread SCHED_BATCH: its wakeups no longer preempt the running thread.
int afp_mark_thread_batch(void);

/// A file with no name yet in `directory` (O_TMPFILE), open for reading and writing; -1 and
/// errno when the file system cannot make one.
int afp_open_anonymous(const char *directory, mode_t mode);

/// Renames `from` to `to` unless `to` exists (then fails with EEXIST, leaving both as they are).
int afp_rename_noreplace(const char *from, const char *to);

/// Gives the anonymous file open as `descriptor` the name `path` (linkat through /proc, which
/// needs no privilege); fails with EEXIST when `path` exists, leaving it as it is.
int afp_link_anonymous(int descriptor, const char *path);

/// Bytes written to the connected socket `socket` that its kernel has not sent yet, or not
/// yet seen acknowledged by the peer (SIOCOUTQ); -1 and errno when it cannot tell.
int afp_unsent_bytes(int socket);

#endif
