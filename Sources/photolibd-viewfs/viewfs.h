// photolibd-viewfs's two halves: the mirror of a view (photolibd-viewfs.c) and the photos an app
// saves into its folder, which go to its inbox (saves.c).
#ifndef PHOTOLIBD_VIEWFS_H
#define PHOTOLIBD_VIEWFS_H
#define FUSE_USE_VERSION 31
#include <fuse.h>
#include <sys/stat.h>

// The view mirrored (O_PATH) and the app's inbox (O_PATH; -1: nothing may be saved, the mount is ro).
extern int view_source;
extern int view_inbox;
// The library the view's references point into (O_PATH); -1 where its entries are files.
extern int view_library;
// The one uid that may read the mount (allow_other, everything shown as its alone); -1: the owner's only.
extern uid_t view_reader;

// A new file the app saves at the top of its folder: written into its inbox under a hidden name,
// then given its own name there once the last descriptor to it is closed (a hidden name, as an
// atomic save writes first, waits for its rename). Each returns -ENOENT for a path that is no save
// in progress, so the caller falls back to the mirror.
int saves_create(const char *path, mode_t mode, struct fuse_file_info *fi);
int saves_open(const char *path, struct fuse_file_info *fi);
int saves_getattr(const char *path, struct stat *st);
int saves_release(const char *path, struct fuse_file_info *fi);
int saves_rename(const char *from, const char *to);
int saves_unlink(const char *path);
int saves_truncate(const char *path, off_t size);
int saves_exists(const char *path);
void saves_list(void *buffer, fuse_fill_dir_t fill);
// Removes what was never finished (photolibd is going): nothing half-written is left for the inbox.
void saves_abandon(void);

// Reads photolibd's request from the channel (request.c): the mount point, the view, the library its
// references point into (-1 when its entries are files), the inbox (-1 when none), the one uid that
// reads it (-1: the owner), and the views directory's tag (NULL from a photolibd that sends none).
// Returns 0, or -1 with errno set (EPROTO for a request that is not one).
int read_request(char **mount_point, int *source, int *inbox, int *library, uid_t *reader, char **tag);
// Whether `tag` is a views directory's tag (ViewMountName): 1 to 32 lowercase hexadecimal digits.
int valid_tag(const char *tag);
// Unmounts, lazily, a view that a killed server of the same views directory (`tag`; any when NULL)
// left at `path`, if there is one.
void unmount_stale(const char *path, const char *tag);
// Whether a view of photolibd's (fuse.photolibd-view) is mounted at `path` in this mount namespace:
// with `source` as its source (its fsname), or when `source` is NULL, one of the views directory
// tagged `tag` (or untagged), or any when `tag` is NULL too.
int view_mounted_at(const char *path, const char *source, const char *tag);

// Follows the view's changes with inotify and has the kernel drop what it caches of a name that
// changed (changes.c): started once mounted, before confinement. Returns 0, or -1 with errno set.
int changes_start(struct fuse *fuse);
// Watches a directory of the view (`path` as FUSE names it, `directory` a descriptor to it) from now on.
void changes_watch(const char *path, int directory);

// How an open reads (cache.c): through the kernel's cache of the name, as it is (the same file) or
// emptied first (another file, nobody reading the old one), or past it (the old file still read).
enum cache_use { CACHE_KEEP, CACHE_ADOPT, CACHE_BYPASS };
// Decides how an open of `path`, which found the file `file`, reads; each open is released once.
enum cache_use cache_open(const char *path, const struct stat *file);
void cache_release(const char *path, enum cache_use use);

// Confines the whole process (every thread) to serving requests from what it holds open (confine.c).
// Returns 0, or -1 with errno set (ENOSYS where no filter is written for the architecture).
int confine_server(void);

#endif
