// Linux's sync_file_range(2), a GNU extension that Swift's Glibc module does not export (it is
// declared only under _GNU_SOURCE): declared here as glibc defines it.
#pragma once

int sync_file_range(int fd, long long offset, long long count, unsigned int flags);

/// Starts writing the dirty pages of `count` bytes of `fd` from `offset` to its disk, without
/// waiting for them (SYNC_FILE_RANGE_WRITE); 0, or -1 with errno.
static inline int cfilewriteback_start(int fd, long long offset, long long count) {
    return sync_file_range(fd, offset, count, 2 /* SYNC_FILE_RANGE_WRITE */);
}
