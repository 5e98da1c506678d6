// What an app saves into its folder: new files only, at its top, each going to the app's inbox,
// where photolibd takes it in as from any inbox (checked, moved into Imported/APP/, added to a
// limited app's selection). Nothing here can touch what the view shows: a name the view holds is
// never created, replaced or removed (EROFS), and only a save in progress can be written, renamed,
// truncated or removed.
#define _GNU_SOURCE
#include "viewfs.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct save {
    char name[NAME_MAX + 1];  // as the app named it
    char temporary[64];       // its hidden name in the inbox while it is written
    int opens;
    struct save *next;
};

static struct save *saves;
static unsigned long long counter;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

// The name of a path at the top of the folder ("/name"), or NULL (the root itself, or deeper).
static const char *top_name(const char *path) {
    if (!path || path[0] != '/' || path[1] == '\0' || strchr(path + 1, '/')) return NULL;
    return strlen(path + 1) > NAME_MAX ? NULL : path + 1;
}

static struct save *find(const char *name) {
    for (struct save *save = saves; save; save = save->next)
        if (strcmp(save->name, name) == 0) return save;
    return NULL;
}

static void forget(struct save *gone) {
    for (struct save **link = &saves; *link; link = &(*link)->next) {
        if (*link == gone) {
            *link = gone->next;
            free(gone);
            return;
        }
    }
}

// A name the view shows: it may not be created, replaced or removed.
static int in_view(const char *name) {
    struct stat st;
    return fstatat(view_source, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

// Its own name in the inbox: the app's, or "2-name", "3-name" … beside an unimported one of that name.
static void finish(struct save *save) {
    char target[NAME_MAX + 16];
    for (int attempt = 1; attempt <= 1000; attempt++) {
        if (attempt == 1)
            snprintf(target, sizeof target, "%s", save->name);
        else
            snprintf(target, sizeof target, "%d-%s", attempt, save->name);
        if (renameat2(view_inbox, save->temporary, view_inbox, target, RENAME_NOREPLACE) == 0 || errno != EEXIST) break;
    }
    forget(save);
}

int saves_exists(const char *path) {
    const char *name = top_name(path);
    if (!name) return 0;
    pthread_mutex_lock(&lock);
    int found = find(name) != NULL;
    pthread_mutex_unlock(&lock);
    return found;
}

int saves_create(const char *path, mode_t mode, struct fuse_file_info *fi) {
    (void)mode;
    const char *name = top_name(path);
    if (view_inbox < 0 || !name || in_view(name)) return -EROFS;
    pthread_mutex_lock(&lock);
    if (find(name)) {
        pthread_mutex_unlock(&lock);
        return -EEXIST;  // the kernel asks create only for a name it found missing: a race with another save
    }
    struct save *save = calloc(1, sizeof *save);
    if (!save) {
        pthread_mutex_unlock(&lock);
        return -ENOMEM;
    }
    snprintf(save->name, sizeof save->name, "%s", name);
    snprintf(save->temporary, sizeof save->temporary, ".photolibd-viewfs-%d-%llu.part", (int)getpid(), ++counter);
    int fd = openat(view_inbox, save->temporary, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
        int error = errno;
        free(save);
        pthread_mutex_unlock(&lock);
        return -error;
    }
    save->opens = 1;
    save->next = saves;
    saves = save;
    pthread_mutex_unlock(&lock);
    fi->fh = (uint64_t)fd;
    return 0;
}

int saves_open(const char *path, struct fuse_file_info *fi) {
    const char *name = top_name(path);
    if (!name) return -ENOENT;
    pthread_mutex_lock(&lock);
    struct save *save = find(name);
    int result = -ENOENT;
    if (save) {
        int flags = (fi->flags & (O_ACCMODE | O_TRUNC | O_APPEND)) | O_CLOEXEC | O_NOFOLLOW;
        int fd = openat(view_inbox, save->temporary, flags);
        if (fd < 0) {
            result = -errno;
        } else {
            save->opens++;
            fi->fh = (uint64_t)fd;
            result = 0;
        }
    }
    pthread_mutex_unlock(&lock);
    return result;
}

int saves_getattr(const char *path, struct stat *st) {
    const char *name = top_name(path);
    if (!name) return -ENOENT;
    pthread_mutex_lock(&lock);
    struct save *save = find(name);
    int result = -ENOENT;
    if (save) result = fstatat(view_inbox, save->temporary, st, AT_SYMLINK_NOFOLLOW) == 0 ? 0 : -errno;
    pthread_mutex_unlock(&lock);
    return result;
}

int saves_release(const char *path, struct fuse_file_info *fi) {
    const char *name = top_name(path);
    pthread_mutex_lock(&lock);
    struct save *save = name ? find(name) : NULL;
    // Only a save's descriptor is closed here: the view's are the caller's to close, once.
    if (save) close((int)fi->fh);
    int handled = save != NULL;
    // Written and closed: it goes to its own name, where the inbox takes it in. A hidden name is
    // an atomic save's first half: it waits for its rename.
    if (save && --save->opens <= 0 && save->name[0] != '.') finish(save);
    pthread_mutex_unlock(&lock);
    return handled ? 0 : -ENOENT;
}

int saves_rename(const char *from, const char *to) {
    const char *old = top_name(from), *new = top_name(to);
    if (!old) return -EROFS;
    pthread_mutex_lock(&lock);
    struct save *save = find(old);
    int result;
    if (!save || !new || in_view(new)) {
        result = -EROFS;  // only a save in progress moves, and never over what the view shows
    } else {
        struct save *replaced = find(new);
        if (replaced && replaced != save) {
            unlinkat(view_inbox, replaced->temporary, 0);
            forget(replaced);
        }
        snprintf(save->name, sizeof save->name, "%s", new);
        if (save->opens <= 0 && save->name[0] != '.') finish(save);
        result = 0;
    }
    pthread_mutex_unlock(&lock);
    return result;
}

int saves_unlink(const char *path) {
    const char *name = top_name(path);
    pthread_mutex_lock(&lock);
    struct save *save = name ? find(name) : NULL;
    int result = -EROFS;
    if (save) {
        unlinkat(view_inbox, save->temporary, 0);
        forget(save);
        result = 0;
    }
    pthread_mutex_unlock(&lock);
    return result;
}

int saves_truncate(const char *path, off_t size) {
    const char *name = top_name(path);
    pthread_mutex_lock(&lock);
    struct save *save = name ? find(name) : NULL;
    int result = -EROFS;
    if (save) {
        int fd = openat(view_inbox, save->temporary, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
        result = fd < 0 ? -errno : ftruncate(fd, size) == 0 ? 0 : -errno;
        if (fd >= 0) close(fd);
    }
    pthread_mutex_unlock(&lock);
    return result;
}

void saves_list(void *buffer, fuse_fill_dir_t fill) {
    pthread_mutex_lock(&lock);
    for (struct save *save = saves; save; save = save->next)
        if (save->name[0] != '.') fill(buffer, save->name, NULL, 0, 0);
    pthread_mutex_unlock(&lock);
}

void saves_abandon(void) {
    pthread_mutex_lock(&lock);
    while (saves) {
        unlinkat(view_inbox, saves->temporary, 0);
        forget(saves);
    }
    pthread_mutex_unlock(&lock);
}
