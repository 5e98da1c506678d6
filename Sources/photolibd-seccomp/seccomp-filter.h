// What photolibd's C helpers (photolibd-inotify, photolibd-viewfs) share to write their seccomp
// filters: the architecture a filter is written for, and the pieces every filter has.
#ifndef PHOTOLIBD_SECCOMP_FILTER_H
#define PHOTOLIBD_SECCOMP_FILTER_H
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#if defined(__x86_64__)
#define AUDIT_ARCH_HERE AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define AUDIT_ARCH_HERE AUDIT_ARCH_AARCH64
#endif

// The low 32 bits of a call's argument (both architectures above are little-endian).
#define ARGUMENT(index) (offsetof(struct seccomp_data, args) + (index) * sizeof(uint64_t))

// Kills a process calling as another architecture, then loads the call's number.
#define FILTER_START                                                             \
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),     \
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_HERE, 1, 0),                  \
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),                         \
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr))

// Allows the call `name` (the call's number is loaded).
#define ALLOW(name) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_##name, 0, 1), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

// Allows the call `name` (mmap, mprotect) unless it asks for executable memory (its third argument).
#define ALLOW_WITHOUT_EXEC(name)                                                 \
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_##name, 0, 5),                      \
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARGUMENT(2)),                             \
    BPF_STMT(BPF_ALU | BPF_AND | BPF_K, PROT_EXEC),                              \
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),                                \
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),                                \
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS)

// Everything else kills the process.
#define FILTER_END BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS)

#endif
