#include "shims.h"

#include <spawn.h>

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <malloc.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <linux/fs.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

int photolibd_o_path(void) { return O_PATH; }
int photolibd_o_directory_nofollow(void) { return O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC; }

int photolibd_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid) {
    struct ucred cred;
    socklen_t len = sizeof(cred);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return -1;
    *pid = cred.pid;
    *uid = cred.uid;
    *gid = cred.gid;
    return 0;
}

static int fill_address(struct sockaddr_un *address, const char *path) {
    memset(address, 0, sizeof(*address));
    address->sun_family = AF_UNIX;
    if (strlen(path) >= sizeof(address->sun_path)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(address->sun_path, path);
    return 0;
}

int photolibd_unix_connect(const char *path) {
    struct sockaddr_un address;
    if (fill_address(&address, path) != 0) return -1;
    /* "@name": an abstract socket (as D-Bus buses often are), whose name is
       exactly the bytes after the NUL: the address length must not count more. */
    socklen_t length = sizeof(address);
    if (path[0] == '@') {
        address.sun_path[0] = 0;
        length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(path));
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int rc;
    do {
        rc = connect(fd, (struct sockaddr *)&address, length);
    } while (rc != 0 && errno == EINTR);
    if (rc != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int photolibd_unix_listen(const char *path, int backlog) {
    struct sockaddr_un address;
    if (fill_address(&address, path) != 0) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (bind(fd, (struct sockaddr *)&address, sizeof(address)) != 0 || listen(fd, backlog) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int photolibd_accept(int fd) {
    return accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
}

const char *photolibd_dirent_name(const struct dirent *entry) { return entry->d_name; }
unsigned char photolibd_dirent_type(const struct dirent *entry) { return entry->d_type; }

int photolibd_renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags) {
    return renameat2(olddirfd, oldpath, newdirfd, newpath, flags);
}

int photolibd_ficlone(int dst, int src) {
    return ioctl(dst, FICLONE, src);
}

ssize_t photolibd_copy_file_range(int in, int out, size_t length) {
    return copy_file_range(in, NULL, out, NULL, length, 0);
}

int photolibd_open_untrusted(int dirfd, const char *name) {
    return openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
}

int photolibd_inotify_init(void) {
    return inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
}

int photolibd_mount_id(int fd, uint64_t *mount_id) {
    struct statx stx;
    if (statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) != 0) return -1;
    if (!(stx.stx_mask & STATX_MNT_ID)) {
        errno = ENOTSUP;
        return -1;
    }
    *mount_id = stx.stx_mnt_id;
    return 0;
}

int photolibd_release_free_memory(void) { return malloc_trim(0); }

int photolibd_unblock_all_signals(void) {
    sigset_t none;
    sigemptyset(&none);
    return sigprocmask(SIG_SETMASK, &none, NULL);
}

static int termination_descriptor = -1;
static volatile sig_atomic_t termination_number = 0;

static void photolibd_on_termination(int number) {
    int saved = errno;
    termination_number = number;
    uint64_t one = 1;
    /* Fails only when the counter is full: a stop is pending anyway. */
    (void)write(termination_descriptor, &one, sizeof(one));
    errno = saved;
}

int photolibd_catch_termination_signals(void) {
    if (termination_descriptor < 0) {
        termination_descriptor = eventfd(0, EFD_CLOEXEC);
        if (termination_descriptor < 0) return -1;
    }
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = photolibd_on_termination;
    sigfillset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    if (sigaction(SIGTERM, &action, NULL) < 0 || sigaction(SIGINT, &action, NULL) < 0) return -1;
    return termination_descriptor;
}

int photolibd_caught_termination_signal(void) { return termination_number; }

int photolibd_send_datagram(const char *path, const char *message, size_t length) {
    struct sockaddr_un address;
    memset(&address, 0, sizeof(address));
    address.sun_family = AF_UNIX;
    size_t path_length = strlen(path);
    if (path_length == 0 || path_length >= sizeof(address.sun_path)) {
        errno = EINVAL;
        return -1;
    }
    memcpy(address.sun_path, path, path_length);
    if (path[0] == '@') address.sun_path[0] = 0;  /* abstract: no trailing NUL in the length */
    socklen_t address_length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + path_length + (path[0] == '@' ? 0 : 1));
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    ssize_t sent;
    do {
        sent = sendto(fd, message, length, MSG_NOSIGNAL, (struct sockaddr *)&address, address_length);
    } while (sent < 0 && errno == EINTR);
    int saved = errno;
    close(fd);
    errno = saved;
    return sent < 0 ? -1 : 0;
}

int photolibd_wakeup_eventfd(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

int photolibd_statx(int dirfd, const char *name, struct photolibd_file_status *out) {
    struct statx stx;
    int flags = AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | (name[0] == '\0' ? AT_EMPTY_PATH : 0);
    unsigned int mask = STATX_BASIC_STATS | STATX_BTIME;
    if (statx(dirfd, name, flags, mask, &stx) != 0) return -1;
    out->mode = stx.stx_mode;
    out->uid = stx.stx_uid;
    out->gid = stx.stx_gid;
    out->nlink = stx.stx_nlink;
    out->device = makedev(stx.stx_dev_major, stx.stx_dev_minor);
    out->inode = stx.stx_ino;
    out->size = (int64_t)stx.stx_size;
    out->mtime_sec = stx.stx_mtime.tv_sec;
    out->mtime_nsec = stx.stx_mtime.tv_nsec;
    out->ctime_sec = stx.stx_ctime.tv_sec;
    out->ctime_nsec = stx.stx_ctime.tv_nsec;
    out->has_btime = (stx.stx_mask & STATX_BTIME) ? 1 : 0;
    out->btime_sec = out->has_btime ? stx.stx_btime.tv_sec : 0;
    out->btime_nsec = out->has_btime ? stx.stx_btime.tv_nsec : 0;
    return 0;
}

/* Whether linkat(AT_EMPTY_PATH) works for this process: 1 yes, 0 no, -1 not known yet.
   Linux >= 6.10 lets a process link an O_PATH descriptor it opened itself; older
   kernels want CAP_DAC_READ_SEARCH and answer ENOENT. It saves the /proc/self/fd
   lookup on every link. */
static _Atomic int empty_path_links = -1;

int photolibd_link_open_file(int fd, int newdirfd, const char *newpath) {
    if (atomic_load(&empty_path_links) != 0) {
        int result = linkat(fd, "", newdirfd, newpath, AT_EMPTY_PATH);
        if (result == 0) {
            atomic_store(&empty_path_links, 1);
            return 0;
        }
        if (errno != ENOENT && errno != EPERM) return result;
        if (atomic_load(&empty_path_links) == 1) return result;  /* it works here: this ENOENT is the file's */
    }
    char path[64];
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    int result = linkat(AT_FDCWD, path, newdirfd, newpath, AT_SYMLINK_FOLLOW);
    if (result == 0) atomic_store(&empty_path_links, 0);
    return result;
}

int photolibd_open_path_nofollow(int dirfd, const char *name) {
    return openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
}

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif

int photolibd_peer_pidfd(int fd) {
    int pidfd = -1;
    socklen_t length = sizeof(pidfd);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERPIDFD, &pidfd, &length) != 0) return -1;
    return pidfd;
}

int photolibd_pidfd_open(int32_t pid) {
    return (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
}

int photolibd_pidfd_alive(int pidfd) {
    return (int)syscall(SYS_pidfd_send_signal, pidfd, 0, NULL, 0);
}

int photolibd_pidfd_signal(int pidfd, int signal) {
    return (int)syscall(SYS_pidfd_send_signal, pidfd, signal, NULL, 0);
}

int photolibd_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

int photolibd_pidfd_reap(int pidfd, int options, int *exited, int *status) {
    siginfo_t info;
    memset(&info, 0, sizeof(info));
    // P_PIDFD is 3 (Linux 5.4); bookworm's glibc headers name it, older ones do not.
    if (waitid((idtype_t)3, (id_t)pidfd, &info, WEXITED | options) != 0) return -1;
    if (info.si_pid == 0) return 0;
    *exited = info.si_code == CLD_EXITED;
    *status = info.si_status;
    return 1;
}

/// Room for the most descriptors one SCM_RIGHTS message carries, aligned for cmsghdr.
union passed_fds_control {
    char buffer[CMSG_SPACE(sizeof(int) * PHOTOLIBD_MAX_PASSED_FDS)];
    struct cmsghdr align;
};

/// A message of one buffer, with CONTROL as its ancillary data.
static struct msghdr one_buffer_message(struct iovec *iov, union passed_fds_control *control) {
    struct msghdr message;
    memset(&message, 0, sizeof(message));
    memset(control, 0, sizeof(*control));
    message.msg_iov = iov;
    message.msg_iovlen = 1;
    message.msg_control = control->buffer;
    message.msg_controllen = sizeof(control->buffer);
    return message;
}

ssize_t photolibd_send_with_fds(int sock, const void *bytes, size_t length, const int *fds, int count) {
    if (count < 0 || count > PHOTOLIBD_MAX_PASSED_FDS) {
        errno = EINVAL;
        return -1;
    }
    struct iovec iov = {.iov_base = (void *)bytes, .iov_len = length};
    union passed_fds_control control;
    struct msghdr message = one_buffer_message(&iov, &control);
    if (count > 0) {
        message.msg_controllen = CMSG_SPACE(sizeof(int) * count);
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int) * count);
        memcpy(CMSG_DATA(header), fds, sizeof(int) * count);
    } else {
        message.msg_control = NULL;
        message.msg_controllen = 0;
    }
    return sendmsg(sock, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
}

ssize_t photolibd_recv_with_fds(int sock, void *bytes, size_t length, int *fds, int capacity, int *count, int *truncated) {
    struct iovec iov = {.iov_base = bytes, .iov_len = length};
    union passed_fds_control control;
    struct msghdr message = one_buffer_message(&iov, &control);
    *count = 0;
    *truncated = 0;
    ssize_t received = recvmsg(sock, &message, MSG_CMSG_CLOEXEC);
    if (received < 0) return -1;
    if (message.msg_flags & MSG_CTRUNC) *truncated = 1;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header != NULL; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        int n = (int)((header->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        int *passed = (int *)CMSG_DATA(header);
        for (int i = 0; i < n; i++) {
            if (*count < capacity) {
                fds[(*count)++] = passed[i];
            } else {
                close(passed[i]);
                *truncated = 1;
            }
        }
    }
    return received;
}

int photolibd_open_tmpfile(int dirfd) {
    return openat(dirfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
}

int photolibd_reopen_read_only(int fd) {
    char path[64];
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    return open(path, O_RDONLY | O_CLOEXEC);
}

#ifndef SO_COOKIE
#define SO_COOKIE 57
#endif

int photolibd_socket_cookie(int fd, uint64_t *cookie) {
    socklen_t length = sizeof(*cookie);
    return getsockopt(fd, SOL_SOCKET, SO_COOKIE, cookie, &length);
}

int photolibd_find_socket(uint64_t cookie) {
    DIR *directory = opendir("/proc/self/fd");
    if (directory == NULL) return -1;
    int self = dirfd(directory);
    int found = -1;
    struct dirent *entry;
    while ((entry = readdir(directory)) != NULL) {
        char *end;
        long number = strtol(entry->d_name, &end, 10);
        if (*end != '\0' || end == entry->d_name || number == self) continue;
        uint64_t candidate;
        if (photolibd_socket_cookie((int)number, &candidate) == 0 && candidate == cookie) {
            found = (int)number;
            break;
        }
    }
    closedir(directory);
    if (found < 0) errno = ENOENT;
    return found;
}

extern char **environ;

// Starts `path` with `actions` already holding the child's standard descriptors: nothing else
// of the starter's stays open (a pipe it inherited would never see EOF while the child lives),
// every signal unblocked and at its default. `flags` may add POSIX_SPAWN_SETSID.
static int spawn_clean(const char *path, char *const argv[], posix_spawn_file_actions_t *actions, short flags, int32_t *pid) {
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawn_file_actions_addclosefrom_np(actions, 3);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attributes, &none);
    sigset_t defaults;
    sigfillset(&defaults);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setflags(&attributes, flags | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t child = 0;
    int result = posix_spawn(&child, path, actions, &attributes, argv, environ);
    posix_spawn_file_actions_destroy(actions);
    posix_spawnattr_destroy(&attributes);
    if (result == 0) *pid = child;
    return result;
}

int photolibd_spawn_detached(const char *path, char *const argv[], const char *output, int32_t *pid) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    return spawn_clean(path, argv, &actions, POSIX_SPAWN_SETSID, pid);
}

int photolibd_spawn_helper(const char *path, char *const argv[], int channel, int32_t *pid) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, channel, 0);
    posix_spawn_file_actions_adddup2(&actions, channel, 1);
    return spawn_clean(path, argv, &actions, 0, pid);
}

long photolibd_getrandom(void *buffer, unsigned long length) {
    return (long)getrandom(buffer, length, 0);
}

int photolibd_filesystem_type(int fd, unsigned long *type) {
    struct statfs info;
    int result = fstatfs(fd, &info);
    if (result == 0) *type = (unsigned long)info.f_type;
    return result;
}

int photolibd_try_read_lease(int fd) {
    if (fcntl(fd, F_SETLEASE, F_RDLCK) != 0) return -1;
    return fcntl(fd, F_SETLEASE, F_UNLCK);
}

int photolibd_name_thread(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}

int photolibd_thread_nice(int nice) {
    return setpriority(PRIO_PROCESS, (id_t)gettid(), nice);
}

int photolibd_thread_io_last(void) {
    // <linux/ioprio.h> is not in every libc's headers: IOPRIO_WHO_PROCESS is 1, best effort is class 2 above bit 13.
    return (int)syscall(SYS_ioprio_set, 1, 0, (2 << 13) | 7);
}

int photolibd_thread_io_priority(void) {
    return (int)syscall(SYS_ioprio_get, 1, 0);
}
