// What the kernel keeps of an entry (its attributes for a second, the pages an app has read) is
// dropped the moment the entry changes in the view: photolibd removes a revoked photo's link, or
// puts a new link in place of an edited one, and this program hears it from inotify and tells the
// kernel to forget that name's inode. So a repeated read is served from the kernel's cache (as fast
// as the originals), yet a revoked photo's cached pages are not readable a moment longer through a
// descriptor the app still holds, and an edited photo is never shown as it was.
//
// Every directory of the view the app has looked into is watched (the top from the start, an album
// once it is listed or looked up): inotify_add_watch gives the same watch for the same directory, so
// looking again only refreshes its path (an album renamed in the view is watched under its new name
// the next time it is looked up).
#define _GNU_SOURCE
#include "viewfs.h"
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#define CHANGES (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVE_SELF | IN_ONLYDIR | IN_EXCL_UNLINK)

static int changes = -1;
static struct fuse *served;
static pthread_mutex_t paths_lock = PTHREAD_MUTEX_INITIALIZER;
static char **paths;  // FUSE's path of each watched directory, by watch descriptor (NULL: not known now)
static size_t path_count;

static void remember(int watch, const char *path) {
    pthread_mutex_lock(&paths_lock);
    if ((size_t)watch >= path_count) {
        size_t count = (size_t)watch * 2 + 8;
        char **grown = realloc(paths, count * sizeof *grown);
        if (!grown) goto done;  // unwatched: reads still check the view (view_read), only cached pages are not dropped
        memset(grown + path_count, 0, (count - path_count) * sizeof *grown);
        paths = grown;
        path_count = count;
    }
    if (!paths[watch] || strcmp(paths[watch], path) != 0) {
        free(paths[watch]);
        paths[watch] = strdup(path);
    }
done:
    pthread_mutex_unlock(&paths_lock);
}

void changes_watch(const char *path, int directory) {
    if (changes < 0) return;
    char through[64];
    snprintf(through, sizeof through, "/proc/self/fd/%d", directory);
    int watch = inotify_add_watch(changes, through, CHANGES);
    if (watch >= 0) remember(watch, path);
}

// The path of `name` in the directory watched by `watch`, or NULL when that directory's path is not known.
static char *path_of(int watch, const char *name) {
    char *path = NULL;
    pthread_mutex_lock(&paths_lock);
    const char *directory = (size_t)watch < path_count ? paths[watch] : NULL;
    if (directory && asprintf(&path, "%s/%s", strcmp(directory, "/") == 0 ? "" : directory, name) < 0) path = NULL;
    pthread_mutex_unlock(&paths_lock);
    return path;
}

static void forget_path(int watch) {
    pthread_mutex_lock(&paths_lock);
    if ((size_t)watch < path_count) {
        free(paths[watch]);
        paths[watch] = NULL;
    }
    pthread_mutex_unlock(&paths_lock);
}

static void *follow_changes(void *unused) {
    (void)unused;
    _Alignas(struct inotify_event) char buffer[64 * (sizeof(struct inotify_event) + NAME_MAX + 1)];
    for (;;) {
        ssize_t count = read(changes, buffer, sizeof buffer);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) return NULL;  // cannot happen on an inotify descriptor; reads still check the view
        for (char *at = buffer; at < buffer + count;) {
            const struct inotify_event *event = (const struct inotify_event *)at;
            at += sizeof *event + event->len;
            if (event->mask & (IN_MOVE_SELF | IN_IGNORED)) {
                forget_path(event->wd);  // renamed or gone: its path is learnt again when it is looked up
                continue;
            }
            if (event->mask & IN_Q_OVERFLOW) {
                fprintf(stderr, "photolibd-viewfs: too many changes at once to follow; cached pages of a removed photo stay readable until closed\n");
                continue;
            }
            if (event->len == 0 || event->name[0] == '.') continue;  // staging names are never served
            char *path = path_of(event->wd, event->name);
            if (!path) continue;
            // The inode FUSE gave this name, if the kernel holds one: its attributes and pages go.
            (void)fuse_invalidate_path(served, path);
            free(path);
        }
    }
}

int changes_start(struct fuse *fuse) {
    served = fuse;
    changes = inotify_init1(IN_CLOEXEC);
    if (changes < 0) return -1;
    changes_watch("/", view_source);
    pthread_t follower;
    if (pthread_create(&follower, NULL, follow_changes, NULL) != 0) return -1;
    pthread_detach(follower);
    return 0;
}
