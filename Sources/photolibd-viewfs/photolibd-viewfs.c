// photolibd-viewfs: an app's view, served read-only through FUSE, copying nothing.
//
// photolibd keeps every view as a directory of hard links (or clones) to the originals. Where the
// app's own folder cannot hold links safely (a Flatpak app's Pictures folder on ext4: the app runs as
// the owner in a read-write folder, and could write an original through a link), photolibd keeps the
// view in a directory only the owner can enter, and this program mirrors it onto the app's folder,
// read-only: nothing can be written, truncated, renamed, chmodded or deleted through it (the mount is
// `ro`, and every call that would change something answers EROFS), and nothing is copied.
//
//   photolibd-viewfs [--tag TAG] [--library LIBRARY] [--reader UID] SOURCE MOUNTPOINT [INBOX]
//   photolibd-viewfs --from-socket
//
// TAG is the tag of photolibd's views directory (ViewMountName): the mount is named
// "photolibd:TAG:<a number drawn here>", so a daemon recovers what its own predecessor left and never
// another daemon's mount in the same home. Through the socket, the tag follows the mount point.
//
// The second form is started by its socket unit (systemd/user/photolibd-viewfs.socket) for one
// connection from photolibd, which sends what to serve over it (request.c): photolibd's own unit
// runs with no_new_privs, under which the setuid fusermount3 cannot mount, so it asks this unit.
// With INBOX, an app may save new photos at the top of its folder: each goes to that inbox
// (saves.c), where photolibd takes it in as from any inbox; nothing the view shows can be changed.
// Without it the mount is read-only through and through.
//
// Its standard input and output are a socket to photolibd. Once mounted it writes "PLVIEWF1\n" there;
// when photolibd closes its end (photolibd stopped or died) it exits, and a process of its own that
// outlives it unmounts the view, as it does if this one is killed outright. So with photolibd or this
// server gone, the app's folder shows nothing of the library.
//
// What it serves of each entry: the regular files and directories of SOURCE, found without following
// any symlink (openat2 RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS), names starting with "." left out (the
// view's staging names), write bits cleared, and a link count of 1 (a hard link's count would tell
// the app how many other views hold the photo). Reads are served from a descriptor this program opened
// read-only; the app never reaches the original by a path.
//
// With LIBRARY, the view's entries are references (photolibd's `references` form, for a library on a
// network filesystem whose views are on the local disk, where no link can cross): each a symbolic link
// holding a photo's path from the library's top. Such an entry is served as that photo, opened beneath
// LIBRARY (openat2 RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV), and only when it is a
// regular file of this uid that no one else may write, with no set-ID bit: what photolibd checked
// before naming it, checked again at each open, for a server may change it meanwhile. Nothing of the
// library is copied; a server that is away answers the app's open with the mount's own error.
//
// With UID (an app under a uid of its own, reading a view of references), the mount is allow_other
// (which fusermount3 grants only where /etc/fuse.conf has user_allow_other) and everything in it is
// shown as UID's alone: directories 0500, files 0400. The kernel checks those modes
// (default_permissions): UID reads, no other uid does, not even the owner.
//
// What the kernel caches is kept honest by the view itself: a photo read again comes from the
// kernel's cache of it (cache.c says whose pages those are), and the moment photolibd changes a name
// in the view, the kernel is told to forget what it held of it (changes.c). A photo revoked while an
// app holds it open reads no more, not even what it read before; an edited photo's next open reads
// the edit, while a reader of the old one reads it to its end, as through a link.
//
// It links libfuse3 (LGPL-2.1) and the C library only; built by scripts/build-c-helpers with cc.
#define _GNU_SOURCE
#include "viewfs.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef VERSION
#define VERSION "0.1.0"
#endif

#define CHANNEL_IN 0
#define CHANNEL_OUT 1

int view_source = -1;
int view_inbox = -1;
int view_library = -1;
uid_t view_reader = (uid_t)-1;

// Opens PATH (FUSE's, beginning with "/") below the source, never through a symlink or out of it.
static int open_below(const char *path, int flags) {
    const char *relative = path[1] ? path + 1 : ".";
    struct open_how how = {
        .flags = (unsigned long long)(flags | O_CLOEXEC | O_NOFOLLOW),
        .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
    };
    int fd;
    do {
        fd = (int)syscall(SYS_openat2, view_source, relative, &how, sizeof how);
    } while (fd < 0 && errno == EINTR);
    return fd < 0 ? -errno : fd;
}

// Opens what PATH shows: the view's entry itself, or where the entries are references, the photo
// one names (see the top), checked as photolibd checks what it names. Returns the descriptor or -errno.
static int open_entry(const char *path, int flags) {
    if (view_library < 0) return open_below(path, flags);
    int entry = open_below(path, O_PATH);
    if (entry < 0) return entry;
    struct stat st;
    if (fstat(entry, &st) != 0) {
        int error = errno;
        close(entry);
        return -error;
    }
    if (!S_ISLNK(st.st_mode)) {
        if (flags == O_PATH) return entry;
        close(entry);
        return open_below(path, flags);
    }
    char target[4097];
    ssize_t length = readlinkat(entry, "", target, sizeof target - 1);
    int error = errno;
    close(entry);
    if (length < 0) return -error;
    target[length] = '\0';
    if (length < 2 || target[0] != '/') return -ENOENT;  // not a reference photolibd makes
    struct open_how how = {
        .flags = (unsigned long long)(flags | O_CLOEXEC | O_NOFOLLOW),
        .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
    };
    int fd;
    do {
        fd = (int)syscall(SYS_openat2, view_library, target + 1, &how, sizeof how);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) return -errno;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH | S_ISUID | S_ISGID))) {
        close(fd);
        return -EACCES;  // no longer what may be shared: photolibd's next look removes the entry
    }
    return fd;
}

// What the app sees of an entry: a regular file or a directory, read-only, linked once.
static int present(struct stat *st) {
    if (!S_ISREG(st->st_mode) && !S_ISDIR(st->st_mode)) return -ENOENT;  // nothing else belongs in a view
    st->st_mode &= ~(mode_t)(S_IWUSR | S_IWGRP | S_IWOTH | S_ISUID | S_ISGID | S_ISVTX);
    if (S_ISREG(st->st_mode)) st->st_nlink = 1;
    if (view_reader != (uid_t)-1) {
        // The reader's alone (see the top): the kernel lets no other uid in.
        st->st_uid = view_reader;
        st->st_mode = (st->st_mode & S_IFMT) | (S_ISDIR(st->st_mode) ? 0500 : 0400);
    }
    return 0;
}

static int hidden(const char *path) {
    if (!path) return 0;
    const char *last = strrchr(path, '/');
    return last && last[1] == '.';
}

static int view_getattr(const char *path, struct stat *st, struct fuse_file_info *fi) {
    if (saves_getattr(path, st) == 0) return 0;  // a file being saved, as it is
    if (fi) {
        if (fstat((int)fi->fh, st) != 0) return -errno;
        return present(st);
    }
    if (hidden(path)) return -ENOENT;
    int fd = open_entry(path, O_PATH);
    if (fd < 0) return fd;
    int result = fstat(fd, st) == 0 ? present(st) : -errno;
    if (result == 0 && S_ISDIR(st->st_mode)) changes_watch(path, fd);
    close(fd);
    // The top may take new files when there is an inbox for them (the kernel checks this mode).
    if (result == 0 && view_inbox >= 0 && strcmp(path, "/") == 0) st->st_mode |= S_IWUSR;
    return result;
}

static int view_readdir(const char *path, void *buffer, fuse_fill_dir_t fill, off_t offset, struct fuse_file_info *fi,
                        enum fuse_readdir_flags flags) {
    (void)offset, (void)fi, (void)flags;
    if (hidden(path)) return -ENOENT;
    int fd = open_below(path, O_RDONLY | O_DIRECTORY);
    if (fd < 0) return fd;
    DIR *directory = fdopendir(fd);
    if (!directory) {
        int error = errno;
        close(fd);
        return -error;
    }
    changes_watch(path, fd);
    fill(buffer, ".", NULL, 0, 0);
    fill(buffer, "..", NULL, 0, 0);
    if (strcmp(path, "/") == 0) saves_list(buffer, fill);
    struct dirent *entry;
    errno = 0;
    while ((entry = readdir(directory)) != NULL) {
        if (entry->d_name[0] == '.') continue;
        if (entry->d_type != DT_REG && entry->d_type != DT_DIR && entry->d_type != DT_UNKNOWN
            && !(entry->d_type == DT_LNK && view_library >= 0)) continue;
        if (fill(buffer, entry->d_name, NULL, 0, 0) != 0) break;
    }
    int error = errno;
    closedir(directory);
    return -error;
}

static int view_open(const char *path, struct fuse_file_info *fi) {
    int saved = saves_open(path, fi);
    if (saved != -ENOENT) return saved;
    if ((fi->flags & O_ACCMODE) != O_RDONLY || (fi->flags & (O_TRUNC | O_CREAT | O_APPEND))) return -EROFS;
    if (hidden(path)) return -ENOENT;
    int fd = open_entry(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return fd;
    struct stat st;
    int refused = fstat(fd, &st) != 0 ? -errno : !S_ISREG(st.st_mode) ? -EISDIR : 0;
    if (refused) {
        close(fd);
        return refused;
    }
    // What the kernel cached of this name is kept across opens of the same file (cache.c); a change
    // of its size or time, seen at the open's lookup, drops it all the same.
    enum cache_use use = cache_open(path, &st);
    fi->keep_cache = use == CACHE_KEEP;
    fi->direct_io = use == CACHE_BYPASS;
    fi->fh = (uint64_t)(unsigned)fd | (uint64_t)use << 32;  // the descriptor, and how it reads
    return 0;
}

static int view_read(const char *path, char *buffer, size_t size, off_t offset, struct fuse_file_info *fi) {
    // A photo taken out of the view is cut off for an app still holding it open: what the kernel
    // cached of it was dropped when its name went (changes.c), so every read now reaches here. A
    // photo replaced by its edit keeps its name: an app reading the old one reads it to the end.
    if (!saves_exists(path)) {
        int named = open_below(path, O_PATH);
        if (named < 0) return named;
        close(named);
    }
    ssize_t count;
    do {
        count = pread((int)fi->fh, buffer, size, offset);
    } while (count < 0 && errno == EINTR);
    return count < 0 ? -errno : (int)count;
}

static int view_release(const char *path, struct fuse_file_info *fi) {
    if (saves_release(path, fi) != -ENOENT) return 0;
    close((int)fi->fh);
    cache_release(path, (enum cache_use)(fi->fh >> 32));
    return 0;
}

// Only a save's descriptor is ever open for writing (view_open refuses the view's entries).
static int view_write(const char *path, const char *buffer, size_t size, off_t offset, struct fuse_file_info *fi) {
    (void)path;
    ssize_t count;
    do {
        count = pwrite((int)fi->fh, buffer, size, offset);
    } while (count < 0 && errno == EINTR);
    return count < 0 ? -errno : (int)count;
}

static int view_fsync(const char *path, int data_only, struct fuse_file_info *fi) {
    (void)path;
    return (data_only ? fdatasync((int)fi->fh) : fsync((int)fi->fh)) == 0 ? 0 : -errno;
}

static int view_truncate(const char *path, off_t size, struct fuse_file_info *fi) {
    if (fi && saves_exists(path)) return ftruncate((int)fi->fh, size) == 0 ? 0 : -errno;
    return saves_truncate(path, size);
}

// A save's mode, owner and times are the inbox's business (photolibd takes it in as its own): accepted, not kept.
static int view_chmod(const char *path, mode_t mode, struct fuse_file_info *fi) { (void)mode, (void)fi; return saves_exists(path) ? 0 : -EROFS; }
static int view_chown(const char *path, uid_t uid, gid_t gid, struct fuse_file_info *fi) {
    (void)uid, (void)gid, (void)fi;
    return saves_exists(path) ? 0 : -EROFS;
}
static int view_utimens(const char *path, const struct timespec times[2], struct fuse_file_info *fi) {
    (void)times, (void)fi;
    return saves_exists(path) ? 0 : -EROFS;
}
static int view_rename(const char *from, const char *to, unsigned int flags) {
    return flags & ~RENAME_NOREPLACE ? -EINVAL : saves_rename(from, to);
}

static int view_statfs(const char *path, struct statvfs *info) {
    (void)path;
    return fstatvfs(view_source, info) == 0 ? 0 : -errno;
}

// Everything that would change the view: refused, whatever the kernel lets through a read-only mount.
static int refuse_path(const char *path) { (void)path; return -EROFS; }
static int refuse_mode(const char *path, mode_t mode) { (void)path, (void)mode; return -EROFS; }
static int refuse_two(const char *from, const char *to) { (void)from, (void)to; return -EROFS; }
static int refuse_mknod(const char *path, mode_t mode, dev_t device) { (void)path, (void)mode, (void)device; return -EROFS; }
static int refuse_setxattr(const char *path, const char *name, const char *value, size_t size, int flags) {
    (void)path, (void)name, (void)value, (void)size, (void)flags;
    return -EROFS;
}
static int refuse_removexattr(const char *path, const char *name) { (void)path, (void)name; return -EROFS; }

static const char *mount_point;
// This server's mount, as the mount table names it: "photolibd:" and a number drawn at start, so the
// unmounter takes down this mount and never another server's on the same folder.
static char fsname[64];

// photolibd's end of the channel closing is the end: what was never finished is removed and the
// process exits; the unmounter (below) then takes the mount down.
static void *watch_channel(void *unused) {
    (void)unused;
    char byte;
    ssize_t count;
    do {
        count = read(CHANNEL_IN, &byte, 1);
    } while (count > 0 || (count < 0 && errno == EINTR));
    saves_abandon();
    _exit(0);
}

// A process of its own that unmounts the view (lazily: an app holding a file open does not keep it)
// once this one has ended, however it ended: it waits for the end of a pipe only this process holds.
// fusermount3's own auto_unmount does nothing, before libfuse 3.15, for a mount without allow_other
// (its check opens the mount point as root, who is refused), so a server killed outright would leave
// a mount refusing every look. Started before anything is mounted, with nothing of this process's open.
static int start_unmounter(void) {
    int ends[2];
    if (pipe2(ends, O_CLOEXEC) != 0) return -1;
    pid_t child = fork();
    if (child < 0) return -1;
    if (child == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, CHANNEL_IN);
            dup2(null, CHANNEL_OUT);
        }
        if (ends[0] != 3) dup2(ends[0], 3);
        syscall(SYS_close_range, 4, ~0U, 0);  // the channel's socket and the view: none of it is kept alive here
        setsid();                             // not in photolibd's process group: a signal to it does not stop this
        char byte;
        while (read(3, &byte, 1) != 0 && errno == EINTR) {}
        // Gone already (photolibd unmounted it), or never mounted: the folder may hold a new server's mount by now.
        if (!view_mounted_at(mount_point, fsname, NULL)) _exit(0);
        execlp("fusermount3", "fusermount3", "-u", "-z", "-q", "--", mount_point, (char *)NULL);
        _exit(127);
    }
    close(ends[0]);
    return 0;  // ends[1] stays open, close-on-exec, until this process ends
}

static void *view_init(struct fuse_conn_info *connection, struct fuse_config *config) {
    // Photos are read whole and in order: the kernel may read ahead a megabyte at a time. (Handing
    // libfuse the descriptor to splice from, read_buf, measured slower here: 3.4x the originals against 2.2x.)
    connection->max_readahead = connection->max_readahead > (1u << 20) ? connection->max_readahead : (1u << 20);
    config->kernel_cache = 0;
    // Every lookup asks here: a revoked photo is gone at once, and a save that has gone to the inbox
    // is not still found by its name (nor opened for writing as if it were the view's).
    config->entry_timeout = 0;
    // An open file's attributes are trusted for a second: with none trusted, the kernel asked here
    // before every read(2) of an app (a round trip per 128 KiB), and reading photos again through the
    // view took about 6 times reading the originals, against 1.9 times now. A name that changes in the
    // view has its attributes dropped at once all the same (changes.c).
    config->attr_timeout = 1.0;
    config->negative_timeout = 0;
    config->use_ino = 0;       // inode numbers of FUSE's own, not the originals'
    pthread_t watcher;
    if (pthread_create(&watcher, NULL, watch_channel, NULL) != 0) _exit(1);
    pthread_detach(watcher);
    if (changes_start(fuse_get_context()->fuse) != 0) {
        fprintf(stderr, "photolibd-viewfs: cannot follow the view's changes (inotify): %s\n", strerror(errno));
        _exit(1);
    }
    // Mounted: nothing more is executed or opened but below the view and the inbox.
    if (confine_server() != 0) {
        fprintf(stderr, "photolibd-viewfs: %s\n", errno == ENOSYS ? "has no seccomp filter for this architecture, and does not serve unconfined"
                                                                : "cannot confine itself (seccomp)");
        _exit(1);
    }
    static const char ready[] = "PLVIEWF1\n";
    if (write(CHANNEL_OUT, ready, sizeof ready - 1) != (ssize_t)(sizeof ready - 1)) _exit(1);
    return NULL;
}

static const struct fuse_operations operations = {
    .init = view_init,
    .getattr = view_getattr,
    .readdir = view_readdir,
    .open = view_open,
    .read = view_read,
    .release = view_release,
    .statfs = view_statfs,
    .mkdir = refuse_mode,
    .unlink = saves_unlink,
    .rmdir = refuse_path,
    .symlink = refuse_two,
    .link = refuse_two,
    .rename = view_rename,
    .chmod = view_chmod,
    .chown = view_chown,
    .truncate = view_truncate,
    .write = view_write,
    .fsync = view_fsync,
    .create = saves_create,
    .mknod = refuse_mknod,
    .utimens = view_utimens,
    .setxattr = refuse_setxattr,
    .removexattr = refuse_removexattr,
};

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("photolibd-viewfs " VERSION " (libfuse %d; GPL-2.0-or-later)\n", fuse_version());
        return 0;
    }
    char *program = argv[0];
    char *requested = NULL;
    char *tag = NULL;
    if (argc >= 3 && strcmp(argv[1], "--tag") == 0) {
        tag = argv[2];
        if (!valid_tag(tag)) {
            fprintf(stderr, "photolibd-viewfs: --tag takes the views directory's tag (1 to 32 hexadecimal digits), not '%s'\n", tag);
            return 2;
        }
        argv += 2;
        argc -= 2;
    }
    if (argc >= 3 && strcmp(argv[1], "--library") == 0) {
        view_library = open(argv[2], O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (view_library < 0) {
            fprintf(stderr, "photolibd-viewfs: cannot open the library %s: %s\n", argv[2], strerror(errno));
            return 1;
        }
        argv += 2;
        argc -= 2;
    }
    if (argc >= 3 && strcmp(argv[1], "--reader") == 0) {
        char *end = NULL;
        unsigned long reader = strtoul(argv[2], &end, 10);
        if (!*argv[2] || *end || reader == 0 || reader >= (unsigned long)(uid_t)-1) {
            fprintf(stderr, "photolibd-viewfs: --reader takes the uid of the app that reads the view (not root), not '%s'\n", argv[2]);
            return 2;
        }
        view_reader = (uid_t)reader;
        argv += 2;
        argc -= 2;
    }
    if (argc == 2 && strcmp(argv[1], "--from-socket") == 0 && !tag && view_library < 0 && view_reader == (uid_t)-1) {
        // Started by its socket unit for one connection from photolibd: what to serve comes over it.
        if (read_request(&requested, &view_source, &view_inbox, &view_library, &view_reader, &tag) != 0) {
            fprintf(stderr, "photolibd-viewfs: the connection did not bring a request from photolibd (a mount point and the view's directory): %s\n",
                    strerror(errno));
            return 2;
        }
        mount_point = requested;
    } else if (argc == 3 || argc == 4) {
        mount_point = argv[2];
    } else {
        fprintf(stderr, "photolibd-viewfs: photolibd starts this program itself: photolibd-viewfs [--tag TAG] [--library LIBRARY] [--reader UID] SOURCE MOUNTPOINT [INBOX], "
                        "or photolibd-viewfs --from-socket under its socket unit, with a socket to photolibd on standard input and output.\n");
        return 2;
    }
    uint64_t drawn;
    if (getrandom(&drawn, sizeof drawn, 0) != (ssize_t)sizeof drawn) {
        fprintf(stderr, "photolibd-viewfs: cannot draw a name for the mount (getrandom): %s\n", strerror(errno));
        return 1;
    }
    if (tag)
        snprintf(fsname, sizeof fsname, "photolibd:%s:%016llx", tag, (unsigned long long)drawn);
    else
        snprintf(fsname, sizeof fsname, "photolibd:%016llx", (unsigned long long)drawn);
    // A server killed with its unmounter (a unit's whole cgroup) leaves its mount refusing every look.
    unmount_stale(mount_point, tag);
    if (start_unmounter() != 0) {
        fprintf(stderr, "photolibd-viewfs: cannot start the process that unmounts the view at the end: %s\n", strerror(errno));
        return 1;
    }
    if (!requested) {
        view_source = open(argv[1], O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (view_source < 0) {
            fprintf(stderr, "photolibd-viewfs: cannot open the view %s: %s\n", argv[1], strerror(errno));
            return 1;
        }
        if (argc == 4) {
            view_inbox = open(argv[3], O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (view_inbox < 0) {
                fprintf(stderr, "photolibd-viewfs: cannot open the inbox %s: %s\n", argv[3], strerror(errno));
                return 1;
            }
        }
    }
    // Foreground, gone with this process; only this uid (the library's owner, as whom the Flatpak app
    // runs) reaches it; the kernel checks the modes presented. Read-only through and through unless
    // the app may save into its inbox.
    char options[256];
    snprintf(options, sizeof options, "%s%s,noatime,nodev,nosuid,noexec,default_permissions,auto_unmount,fsname=%s,subtype=photolibd-view,max_threads=8",
             view_inbox < 0 ? "ro" : "rw", view_reader == (uid_t)-1 ? "" : ",allow_other", fsname);
    char *arguments[] = {program, "-f", "-o", options, (char *)mount_point, NULL};
    return fuse_main(5, arguments, &operations, NULL);
}
