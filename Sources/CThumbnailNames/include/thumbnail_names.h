#ifndef PHOTOLIB_THUMBNAIL_NAMES_H
#define PHOTOLIB_THUMBNAIL_NAMES_H
// How the freedesktop thumbnail cache names a file's thumbnail, with GLib's own functions,
// so the names match what every GNOME and KDE thumbnailer writes.
//
// GLib is loaded with dlopen by the first call, not linked: the page's server is the photolibd
// executable run by another name, and linked, GLib was mapped at every start of the daemon too
// (1.2 MB of its memory), which never names a thumbnail.

#include <stddef.h>

/// Loads GLib once (later calls return the first outcome): 1 when it is there, 0 with the
/// dynamic loader's words in `error`. The functions below may be called only after it said 1.
int photolib_names_ready(char *error, size_t error_size);

/// The MD5 of `text` as 32 hex digits and a NUL in `out` (the cache names a thumbnail
/// by the MD5 of its file's URI).
void photolib_names_md5(const char *text, char out[33]);

/// The `file://` URI of an absolute path, escaped exactly as GLib writes it; free it with
/// photolib_names_free. NULL when not absolute.
char *photolib_names_file_uri(const char *path);

void photolib_names_free(void *pointer);

#endif
