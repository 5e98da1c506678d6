// photolibd-viewfs confines itself once its view is mounted: from then on it may only serve FUSE
// requests from what it already holds open (the view, the inbox) and end. No execve, no socket, no
// mount, no ptrace: a bug reached through a request cannot take it further than the view it serves.
// Every thread is confined at once (TSYNC), and the worker threads libfuse starts later inherit it.
#define _GNU_SOURCE
#include "viewfs.h"
#include <dlfcn.h>
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define AUDIT_ARCH_HERE AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define AUDIT_ARCH_HERE AUDIT_ARCH_AARCH64
#endif

#define ALLOW(name) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_##name, 0, 1), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)
#define ARGUMENT(index) (offsetof(struct seccomp_data, args) + (index) * sizeof(uint64_t))

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
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_HERE, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        // Requests in, replies out; the channel to photolibd.
        ALLOW(read), ALLOW(readv), ALLOW(write), ALLOW(writev),
        // The view and the inbox, below the descriptors held (openat2 resolves beneath them).
        ALLOW(openat2), ALLOW(openat), ALLOW(close), ALLOW(newfstatat), ALLOW(fstat), ALLOW(statx), ALLOW(fstatfs),
        ALLOW(getdents64), ALLOW(lseek), ALLOW(fcntl), ALLOW(pread64), ALLOW(pwrite64), ALLOW(ftruncate),
        ALLOW(fsync), ALLOW(fdatasync), ALLOW(renameat2), ALLOW(unlinkat),
        // libfuse's worker threads come and go; memory for them and for malloc, never executable.
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mmap, 0, 5),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARGUMENT(2)),
        BPF_STMT(BPF_ALU | BPF_AND | BPF_K, PROT_EXEC),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mprotect, 0, 5),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARGUMENT(2)),
        BPF_STMT(BPF_ALU | BPF_AND | BPF_K, PROT_EXEC),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        ALLOW(munmap), ALLOW(madvise), ALLOW(brk), ALLOW(clone3), ALLOW(clone), ALLOW(set_robust_list), ALLOW(rseq),
        ALLOW(futex), ALLOW(rt_sigprocmask), ALLOW(rt_sigaction), ALLOW(sigaltstack), ALLOW(rt_sigreturn),
        ALLOW(restart_syscall), ALLOW(sched_yield), ALLOW(mremap), ALLOW(poll), ALLOW(ppoll),
        // libfuse moves large requests through a pipe with splice when it can.
        ALLOW(pipe2), ALLOW(splice), ALLOW(vmsplice),
        ALLOW(getpid), ALLOW(gettid), ALLOW(exit), ALLOW(exit_group),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
    };
    struct sock_fprog program = {.len = (unsigned short)(sizeof filter / sizeof filter[0]), .filter = filter};
    return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &program) == 0 ? 0 : -1;
#endif
}
