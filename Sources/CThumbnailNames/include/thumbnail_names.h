#ifndef PHOTOLIB_THUMBNAIL_NAMES_H
#define PHOTOLIB_THUMBNAIL_NAMES_H
// How the freedesktop thumbnail cache names a file's thumbnail, with GLib's own functions,
// so the names match what every GNOME and KDE thumbnailer writes. GLib only: the page
// server links this, and no image decoder.

/// The MD5 of `text` as 32 hex digits and a NUL in `out` (the cache names a thumbnail
/// by the MD5 of its file's URI).
void photolib_names_md5(const char *text, char out[33]);

/// The `file://` URI of an absolute path, escaped exactly as GLib writes it; free it with
/// photolib_names_free. NULL when not absolute.
char *photolib_names_file_uri(const char *path);

void photolib_names_free(void *pointer);

#endif
