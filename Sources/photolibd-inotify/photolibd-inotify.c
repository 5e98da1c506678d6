// photolibd-inotify: libinotifytools' reader for photolibd, in a process of its own.
//
// Copyright 2026 the photolibd authors.
// This file is free software: you can redistribute it and/or modify it under the terms of the GNU
// General Public License as published by the Free Software Foundation, either version 2 of the
// License, or (at your option) any later version. Linked with libinotifytools (GPL-2.0-only), the
// program it builds is distributed under the GNU General Public License, version 2 (see
// docs/PACKAGING.md): it links libinotifytools and the C library, nothing else.
//
// Why a process: libinotifytools is GPL-2.0-only, and photolibd's daemon is Swift (its runtime,
// Foundation and the Swift packages are Apache-2.0, which GPL-2.0 cannot take). This program is the
// whole of what links libinotifytools. The daemon starts it with a stream socket on standard input
// and output, and the two speak only the kernel's own inotify ABI:
//
//   1. This program makes libinotifytools' instance (inotifytools_initialize) and sends its
//      descriptor to the daemon (SCM_RIGHTS) with the 8 bytes "PLINOTF1". The daemon adds and
//      removes every watch itself on that descriptor, by /proc/self/fd/N of a directory it opened
//      O_NOFOLLOW, so no path crosses between the two. If the instance cannot be made it sends
//      "PLINOTFE" and the errno (4 bytes, native order) instead, and exits.
//   2. It then reads events with inotifytools_next_events, one at a time (libinotifytools
//      busy-waits when asked for more), and writes each one as the kernel laid it out
//      (struct inotify_event, then `len` bytes of NUL-padded name), batched while more are
//      already buffered. IN_Q_OVERFLOW passes through like any event.
//
// It is confined before it reads anything the kernel hands it: no new privileges, a seccomp filter
// that allows only reading, writing and waiting (anything else kills it), and it dies with the
// daemon (PR_SET_PDEATHSIG). A daemon that stops reading makes its writes block; the kernel's queue
// then overflows, as it would in the daemon itself. When it ends, the daemon sees end of stream
// at once, starts another and rebuilds its watches as after an overflow.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inotifytools/inotifytools.h>
#include "seccomp-filter.h"
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#define CHANNEL_IN 0
#define CHANNEL_OUT 1
#define VERSION "1"

static const char hello[8] = {'P', 'L', 'I', 'N', 'O', 'T', 'F', '1'};
static const char failed[8] = {'P', 'L', 'I', 'N', 'O', 'T', 'F', 'E'};

static void say(const char *what, int error) {
    fprintf(stderr, "photolibd-inotify: %s: %s\n", what, strerror(error));
}

// libinotifytools keeps its descriptor to itself: it is the one inotify instance this process has.
static int find_instance(void) {
    for (int fd = 3; fd < 64; fd++) {
        char link[32], target[64];
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        ssize_t length = readlink(link, target, sizeof target - 1);
        if (length < 0) continue;
        target[length] = '\0';
        if (strcmp(target, "anon_inode:inotify") == 0) return fd;
    }
    return -1;
}

static int send_all(const void *bytes, size_t length) {
    const char *next = bytes;
    while (length > 0) {
        ssize_t sent = write(CHANNEL_OUT, next, length);
        if (sent < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        next += sent;
        length -= (size_t)sent;
    }
    return 0;
}

static int send_descriptor(int fd) {
    union {
        struct cmsghdr header;
        char room[CMSG_SPACE(sizeof(int))];
    } control;
    memset(&control, 0, sizeof control);
    struct iovec bytes = {.iov_base = (void *)hello, .iov_len = sizeof hello};
    struct msghdr message = {.msg_iov = &bytes, .msg_iovlen = 1, .msg_control = control.room, .msg_controllen = sizeof control.room};
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &fd, sizeof(int));
    ssize_t sent;
    do {
        sent = sendmsg(CHANNEL_OUT, &message, MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    return sent == (ssize_t)sizeof hello ? 0 : -1;
}

static void send_failure(int error) {
    char message[12];
    memcpy(message, failed, sizeof failed);
    memcpy(message + sizeof failed, &error, sizeof error);
    (void)send_all(message, sizeof message);
}

// From here on the process may only wait, read its instance, write its channel and exit: no ioctl but
// FIONREAD (TIOCSTI could type into the terminal its standard error may be), no executable memory.
// Where no filter is written for the architecture, it refuses to run rather than run unconfined.
static int confine(void) {
#ifndef AUDIT_ARCH_HERE
    errno = ENOSYS;
    return -1;
#else
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    struct sock_filter filter[] = {
        FILTER_START,
        ALLOW(read),
        ALLOW(write),
        ALLOW(pselect6),
#ifdef __NR_select
        ALLOW(select),
#endif
        // ioctl(fd, FIONREAD, …) alone, in inotifytools_next_events.
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ioctl, 0, 4),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARGUMENT(1)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FIONREAD, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        // mmap for malloc, never with PROT_EXEC.
        ALLOW_WITHOUT_EXEC(mmap),
        ALLOW(rt_sigreturn),
        ALLOW(restart_syscall),
        ALLOW(brk),
        ALLOW(munmap),
        ALLOW(exit),
        ALLOW(exit_group),
        FILTER_END,
    };
    struct sock_fprog program = {.len = (unsigned short)(sizeof filter / sizeof filter[0]), .filter = filter};
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0) return -1;
    return 0;
#endif
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--version") == 0) {
        printf("photolibd-inotify " VERSION " (libinotifytools; GPL-2.0)\n");
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "photolibd-inotify: photolibd starts this program itself, with a socket on standard input and output; "
                        "it takes no arguments but --version.\n");
        return 2;
    }
    // Dies with the daemon's thread that started it (its watcher, which lives as long as the daemon).
    // A daemon that died before this line closed its end: sending the instance below fails, and we leave.
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) return 1;
    // A daemon gone mid-write is an EPIPE to return from, not a signal.
    signal(SIGPIPE, SIG_IGN);
    // Its life is the daemon's (the socket, and PDEATHSIG above), not a stop's: systemd sends SIGTERM
    // to a unit's every process at once, and a helper ending first made the daemon log, at warning,
    // a helper "killed by signal 15" in the middle of an ordinary stop.
    signal(SIGTERM, SIG_IGN);
    signal(SIGINT, SIG_IGN);

    if (inotifytools_initialize() != 1) {
        int error = inotifytools_error();
        say("cannot make an inotify instance (fs.inotify.max_user_instances?)", error);
        send_failure(error);
        return 1;
    }
    int instance = find_instance();
    if (instance < 0) {
        say("cannot find libinotifytools' instance among this process's descriptors", EBADF);
        send_failure(EBADF);
        return 1;
    }
    if (send_descriptor(instance) != 0) {
        say("cannot send the instance to photolibd", errno);
        return 1;
    }
    // The daemon holds its own copy now; the channel's reading end is never read here.
    close(CHANNEL_IN);
    if (confine() != 0) {
        say(errno == ENOSYS ? "has no seccomp filter for this architecture, and does not run unconfined" : "cannot confine itself (seccomp)", errno);
        return 1;
    }

    static char batch[64 * 1024];
    size_t used = 0;
    long wait = -1;
    for (;;) {
        struct inotify_event *event = inotifytools_next_events(wait, 1);
        if (event == NULL) {
            int error = inotifytools_error();
            if (error != 0 && error != EINTR) {
                say("cannot read the inotify instance", error);
                return 1;
            }
            // Nothing more buffered: what is batched goes, then wait for the kernel.
            if (used > 0 && send_all(batch, used) != 0) return errno == EPIPE ? 0 : 1;
            used = 0;
            wait = -1;
            continue;
        }
        size_t size = sizeof(struct inotify_event) + event->len;
        if (used + size > sizeof batch) {
            if (send_all(batch, used) != 0) return errno == EPIPE ? 0 : 1;
            used = 0;
        }
        memcpy(batch + used, event, size);
        used += size;
        // Ask again without waiting: events libinotifytools has read already come at once.
        wait = 0;
    }
}
