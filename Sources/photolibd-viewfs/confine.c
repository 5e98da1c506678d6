// photolibd-viewfs confines itself once its view is mounted: from then on it may only serve FUSE
// requests from what it already holds open (the view, the inbox) and end. No execve, no socket, no
// mount, no ptrace: a bug reached through a request cannot take it further than the view it serves.
// Every thread is confined at once (TSYNC), and the worker threads libfuse starts later inherit it.
#define _GNU_SOURCE
#include "viewfs.h"
#include <dlfcn.h>
#include <errno.h>
#include <sys/prctl.h>
#include <unistd.h>
#include "seccomp-filter.h"

int confine_server(void) {
#ifndef AUDIT_ARCH_HERE
    errno = ENOSYS;  // no filter written for this architecture: refuse to serve unconfined
    return -1;
#else
    // A thread that ends (libfuse lets idle workers go) makes glibc load libgcc_s to unwind it, which
    // maps code: loaded now, before the filter, it is never mapped again.
    (void)dlopen("libgcc_s.so.1", RTLD_NOW | RTLD_NODELETE);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    struct sock_filter filter[] = {
        FILTER_START,
        // Requests in, replies out; the channel to photolibd.
        ALLOW(read), ALLOW(readv), ALLOW(write), ALLOW(writev),
        // The view and the inbox, below the descriptors held (openat2 resolves beneath them).
        ALLOW(openat2), ALLOW(openat), ALLOW(close), ALLOW(newfstatat), ALLOW(fstat), ALLOW(statx), ALLOW(fstatfs),
        ALLOW(getdents64), ALLOW(lseek), ALLOW(fcntl), ALLOW(pread64), ALLOW(pwrite64), ALLOW(ftruncate),
        ALLOW(fsync), ALLOW(fdatasync), ALLOW(renameat2), ALLOW(unlinkat),
        // A view of references: each entry's target read, the photo it names checked as this uid's.
        ALLOW(readlinkat), ALLOW(geteuid),
        // The view's directories followed as the app looks into them (changes.c).
        ALLOW(inotify_add_watch),
        // libfuse's worker threads come and go; memory for them and for malloc, never executable.
        ALLOW_WITHOUT_EXEC(mmap), ALLOW_WITHOUT_EXEC(mprotect),
        ALLOW(munmap), ALLOW(madvise), ALLOW(brk), ALLOW(clone3), ALLOW(clone), ALLOW(set_robust_list), ALLOW(rseq),
        ALLOW(futex), ALLOW(rt_sigprocmask), ALLOW(rt_sigaction), ALLOW(sigaltstack), ALLOW(rt_sigreturn),
        ALLOW(restart_syscall), ALLOW(sched_yield), ALLOW(mremap), ALLOW(poll), ALLOW(ppoll),
        // libfuse moves large requests through a pipe with splice when it can.
        ALLOW(pipe2), ALLOW(splice), ALLOW(vmsplice),
        ALLOW(getpid), ALLOW(gettid), ALLOW(exit), ALLOW(exit_group),
        FILTER_END,
    };
    struct sock_fprog program = {.len = (unsigned short)(sizeof filter / sizeof filter[0]), .filter = filter};
    return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &program) == 0 ? 0 : -1;
#endif
}
