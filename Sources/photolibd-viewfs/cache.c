// Which file's pages the kernel may hold for each name of the view, so that a photo read again is
// served from the kernel's cache and an edited photo is never served as it was.
//
// The kernel keeps one cache per FUSE inode, and libfuse gives one inode per name: when photolibd puts
// an edited photo's new link in place of the old one, the old and the new file share that cache. So
// each name remembers the file (device and inode) whose pages the cache holds, and how many opens read
// through it. An open of that same file keeps what is cached; an open of another file adopts the
// cache (dropping what it held) when nobody reads the old one through it any more, and otherwise
// reads past the cache (direct I/O) until the old file's last reader closes it. An app that was
// reading the photo as it was edited reads the old one to its end, as it would through a link.
#define _GNU_SOURCE
#include "viewfs.h"
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct cached {
    struct cached *next;
    dev_t device;
    ino_t inode;
    unsigned readers;  // opens reading through the cache, not yet released
    char path[];
};

#define BUCKETS 4096
// Beyond this many names the oldest knowledge is not kept: a name not remembered has its cache
// dropped at its next open (safe, only slower).
#define MOST_NAMES 200000

static struct cached *buckets[BUCKETS];
static size_t remembered;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static struct cached **slot(const char *path) {
    uint64_t hash = 1469598103934665603ull;  // FNV-1a
    for (const char *c = path; *c; c++) hash = (hash ^ (unsigned char)*c) * 1099511628211ull;
    struct cached **at = &buckets[hash % BUCKETS];
    while (*at && strcmp((*at)->path, path) != 0) at = &(*at)->next;
    return at;
}

enum cache_use cache_open(const char *path, const struct stat *file) {
    pthread_mutex_lock(&lock);
    struct cached **at = slot(path);
    struct cached *entry = *at;
    enum cache_use use;
    if (entry && entry->device == file->st_dev && entry->inode == file->st_ino) {
        use = CACHE_KEEP;
    } else if (entry && entry->readers > 0) {
        use = CACHE_BYPASS;  // the old file is still read through the cache
    } else {
        use = CACHE_ADOPT;
        if (!entry && remembered < MOST_NAMES) {
            entry = calloc(1, sizeof *entry + strlen(path) + 1);
            if (entry) {
                strcpy(entry->path, path);
                *at = entry;
                remembered++;
            }
        }
        if (entry) {
            entry->device = file->st_dev;
            entry->inode = file->st_ino;
        }
    }
    if (!entry) use = CACHE_BYPASS;  // not remembered (no memory, or too many names): what the cache holds is unknown
    if (use != CACHE_BYPASS) entry->readers++;
    pthread_mutex_unlock(&lock);
    return use;
}

void cache_release(const char *path, enum cache_use use) {
    if (use != CACHE_KEEP && use != CACHE_ADOPT) return;
    pthread_mutex_lock(&lock);
    struct cached *entry = *slot(path);
    if (entry && entry->readers > 0) entry->readers--;
    pthread_mutex_unlock(&lock);
}
