#ifndef PHOTOLIBD_CSYSTEMSHIMS_H
#define PHOTOLIBD_CSYSTEMSHIMS_H
// Entry points and constants that Swift's Glibc module lacks (they need
// _GNU_SOURCE or are macros). Each is a one-line forward to libc; all policy
// lives in Swift's PhotoLibSystem module.
#include <sys/xattr.h>
#include <stdint.h>
#include <sys/types.h>
#include <dirent.h>
#include <spawn.h>

/// O_PATH: open a path without reading it (no open side effects, never blocks on a FIFO).
int photolibd_o_path(void);
/// O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, the flags for walking a tree one component at a time.
int photolibd_o_directory_nofollow(void);

/// The peer of a connected Unix socket, from SO_PEERCRED. Returns 0, or -1 with errno set.
int photolibd_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid);

/// A pidfd for the peer process of a connected Unix socket (SO_PEERPIDFD, Linux 6.5; bookworm's
/// headers lack the constant). Returns the pidfd, or -1 with errno set (ENOPROTOOPT on older kernels).
int photolibd_peer_pidfd(int fd);
/// pidfd_open(2). Returns the pidfd, or -1 with errno set.
int photolibd_pidfd_open(int32_t pid);
/// pidfd_send_signal(pidfd, 0): 0 while the process lives, -1 with ESRCH once it has exited.
int photolibd_pidfd_alive(int pidfd);
/// pidfd_send_signal(pidfd, signal): the signal goes to that process, or fails with ESRCH once it has exited.
int photolibd_pidfd_signal(int pidfd, int signal);
/// waitid(P_PIDFD, pidfd, …, WEXITED | options): reaps the child the pidfd pins. Returns 1 with how it
/// ended (*exited: 1 for an exit with *status, 0 for a signal *status), 0 when WNOHANG finds it still
/// running, or -1 with errno set (ECHILD once it was reaped).
int photolibd_pidfd_reap(int pidfd, int options, int *exited, int *status);
/// posix_spawn_file_actions_addclosefrom_np (glibc 2.34, declared only under _GNU_SOURCE): the child
/// closes every descriptor from FROM on, after the earlier actions. Returns 0 or an error number.
int photolibd_spawn_close_from(posix_spawn_file_actions_t *actions, int from);

/// Connects a new stream socket to a Unix socket path ("@name": an abstract socket). Returns the fd, or -1 with errno set.
int photolibd_unix_connect(const char *path);
/// Creates, binds and listens on a Unix stream socket. Returns the fd, or -1 with errno set.
int photolibd_unix_listen(const char *path, int backlog);

/// getrandom(2) (Glibc's Swift module does not export <sys/random.h>): bytes
/// from the kernel's CSPRNG; the count read, or -1 with errno.
long photolibd_getrandom(void *buffer, unsigned long length);

/// accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK). Returns the connection's fd, or -1 with errno set.
int photolibd_accept(int fd);

/// readdir's entry name (a NUL-terminated byte string) and type.
const char *photolibd_dirent_name(const struct dirent *entry);
unsigned char photolibd_dirent_type(const struct dirent *entry);

/// renameat2(2), which glibc declares only under _GNU_SOURCE.
int photolibd_renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags);
/// ioctl(dst, FICLONE, src): makes dst share src's extents (a reflink), on btrfs, xfs and the like.
/// Returns 0, or -1 with errno set (EOPNOTSUPP, EXDEV, EINVAL, ENOTTY where it cannot).
int photolibd_ficlone(int dst, int src);
/// copy_file_range(in, NULL, out, NULL, length, 0), which glibc declares only under _GNU_SOURCE.
ssize_t photolibd_copy_file_range(int in, int out, size_t length);
/// openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC): reads a file an
/// untrusted party made, never following a symlink nor blocking on a FIFO. Returns the fd, or -1.
int photolibd_open_untrusted(int dirfd, const char *name);
/// inotify_init1(IN_NONBLOCK | IN_CLOEXEC): a raw inotify instance. Returns the fd, or -1 with errno set.
int photolibd_inotify_init(void);
/// The mount ID of an open file (statx STX_MNT_ID): equal IDs mean one mount, so hardlinks work.
int photolibd_mount_id(int fd, uint64_t *mount_id);
/// Returns freed heap memory to the kernel (glibc malloc_trim(0)); 1 when some was released.
int photolibd_release_free_memory(void);
/// Names the calling thread (prctl PR_SET_NAME: the first 15 bytes), as `ps -L` and `top -H` show it. Returns 0, or -1 with errno set.
int photolibd_name_thread(const char *name);
/// setpriority(PRIO_PROCESS, gettid(), nice): on Linux the nice value is the calling thread's alone.
/// A thread cannot lower it again without CAP_SYS_NICE, so only threads that end after their work use it. Returns 0, or -1 with errno set.
int photolibd_thread_nice(int nice);
/// ioprio_set(IOPRIO_WHO_PROCESS, 0, best effort, level 7): the calling thread's reads go after others'
/// (for the schedulers that honour priorities). Returns 0, or -1 with errno set.
int photolibd_thread_io_last(void);
/// ioprio_get(IOPRIO_WHO_PROCESS, 0): the calling thread's I/O priority (its class above bit 13, its level below), or -1 with errno set.
int photolibd_thread_io_priority(void);
/// Unblocks every signal in the calling thread (and so in threads it starts later).
int photolibd_unblock_all_signals(void);

/// Catches SIGTERM and SIGINT with a handler that records the signal and writes
/// to an eventfd (async-signal-safe), whichever thread it runs on. Returns the
/// eventfd to read, or -1 with errno.
int photolibd_catch_termination_signals(void);
/// The last signal the handler recorded (0 before any).
int photolibd_caught_termination_signal(void);
/// Sends one datagram to a Unix datagram socket; a path starting with '@' is abstract.
/// Returns 0, or -1 with errno set.
int photolibd_send_datagram(const char *path, const char *message, size_t length);
/// eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK): a descriptor one thread writes to wake another's poll.
/// Returns the fd, or -1 with errno set.
int photolibd_wakeup_eventfd(void);

/// What photolibd reads of a file: lstat's fields plus the birth time, when the filesystem keeps one.
struct photolibd_file_status {
    uint32_t mode;
    uint32_t uid;
    uint32_t gid;
    uint64_t nlink;
    uint64_t device;
    uint64_t inode;
    int64_t size;
    int64_t mtime_sec;
    uint32_t mtime_nsec;
    int64_t ctime_sec;
    uint32_t ctime_nsec;
    /// 1 when btime_* hold the birth time (statx STATX_BTIME was answered), else 0.
    int has_btime;
    int64_t btime_sec;
    uint32_t btime_nsec;
};
/// statx(2) of `name` in `dirfd`, never following a symlink; with an empty name, of `dirfd` itself
/// (AT_EMPTY_PATH). Returns 0, or -1 with errno set.
int photolibd_statx(int dirfd, const char *name, struct photolibd_file_status *out);
/// linkat(AT_FDCWD, "/proc/self/fd/FD", newdirfd, newpath, AT_SYMLINK_FOLLOW): links the inode an
/// O_PATH descriptor holds, whatever became of its name since. Returns 0, or -1 with errno set.
int photolibd_link_open_file(int fd, int newdirfd, const char *newpath);
/// openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC). Returns the fd, or -1 with errno set.
int photolibd_open_path_nofollow(int dirfd, const char *name);

/// The most descriptors one SCM_RIGHTS message may carry (the kernel's SCM_MAX_FD).
#define PHOTOLIBD_MAX_PASSED_FDS 253
/// sendmsg(2) of `length` bytes with `count` descriptors attached as SCM_RIGHTS (count <= 253),
/// MSG_NOSIGNAL | MSG_DONTWAIT. Returns the bytes sent, or -1 with errno set (EAGAIN: nothing was sent).
ssize_t photolibd_send_with_fds(int sock, const void *bytes, size_t length, const int *fds, int count);
/// recvmsg(2) of up to `length` bytes, taking descriptors passed with them (MSG_CMSG_CLOEXEC) into
/// `fds` (room for `capacity`), their number in `*count`; `*truncated` is 1 when the kernel dropped some
/// (MSG_CTRUNC). Returns the bytes read (0 at end of stream), or -1 with errno set.
ssize_t photolibd_recv_with_fds(int sock, void *bytes, size_t length, int *fds, int capacity, int *count, int *truncated);
/// getsockopt(SO_COOKIE): the socket's number, unique for as long as the system runs. Returns 0, or -1.
int photolibd_socket_cookie(int fd, uint64_t *cookie);
/// The descriptor, among this process's open ones (/proc/self/fd), of the socket whose SO_COOKIE is
/// `cookie`. Returns it, or -1 with errno set (ENOENT: no open descriptor is that socket).
int photolibd_find_socket(uint64_t cookie);
/// openat(dirfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600): a file with no name, gone when its last
/// descriptor closes. Returns the fd, or -1 with errno set (EOPNOTSUPP where the filesystem cannot).
int photolibd_open_tmpfile(int dirfd);
/// open("/proc/self/fd/FD", O_RDONLY | O_CLOEXEC): a new, read-only open file description of the
/// same file. Returns the fd, or -1 with errno set.
int photolibd_reopen_read_only(int fd);

/// Starts `path` with `argv` (NULL-ended) in a session of its own, its standard input
/// /dev/null and its output appended to `output`, with every signal unblocked;
/// the child's pid in *pid. Returns 0, or an errno value.
int photolibd_spawn_detached(const char *path, char *const argv[], const char *output, int32_t *pid);

/// Starts `path` with `argv` (NULL-ended) as a helper: its standard input and output are `channel`
/// (one end of a socket pair), its standard error this process's, nothing else of ours open, every
/// signal unblocked; the child's pid in *pid. Returns 0, or an errno value.
int photolibd_spawn_helper(const char *path, char *const argv[], int channel, int32_t *pid);
/// fstatfs(fd) -> f_type (BTRFS_SUPER_MAGIC, XFS_SUPER_MAGIC...): which filesystem a file is on.
/// Returns 0, or -1 with errno set.
int photolibd_filesystem_type(int fd, unsigned long *type);
/// Takes a read lease on `fd` (open read-only) and lets it go at once: 0 when no one has the
/// file open for writing; -1 with errno EAGAIN when someone has (fcntl(2), F_SETLEASE), or
/// another errno when leases cannot be had here (another uid's file, a filesystem without them).
int photolibd_try_read_lease(int fd);

#endif
