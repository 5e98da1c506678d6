#ifndef PHOTOLIB_THUMBNAIL_H
#define PHOTOLIB_THUMBNAIL_H
// libvips behind a face Swift can call: libvips' options are C varargs, which
// Swift does not import. Linked only by photolibd-thumbnailer, the page server's decoder
// processes (never the daemon, never the page server), within the limits each call is given.
#include <stddef.h>
#include <stdint.h>

/// Starts libvips once per process: `threads` workers per image, at most
/// `cache_bytes` of operation cache. Returns 0, or -1 when libvips cannot start.
int photolib_thumbnail_start(const char *program, int threads, size_t cache_bytes);

/// The limits one thumbnail is made within.
typedef struct {
    /// The longest side of the thumbnail, in pixels (it is never enlarged).
    int size;
    /// An image whose header claims more pixels than this is refused before any decoding.
    int64_t max_pixels;
    /// Decoding and shrinking that takes longer than this is stopped.
    double max_seconds;
} photolib_thumbnail_limits;

/// Makes a PNG thumbnail of the file at `path`, shrinking on load (a JPEG is
/// decoded at a fraction of its size, never whole), with `uri` and `mtime`
/// written as the freedesktop thumbnail standard's Thumb::URI and Thumb::MTime.
///
/// Returns 0 with the PNG's bytes in `*png` (free them with photolib_thumbnail_free)
/// and its length in `*length`; or -1 with a sentence in `error`.
int photolib_thumbnail_make(const char *path, const char *uri, int64_t mtime, photolib_thumbnail_limits limits,
                            void **png, size_t *length, char *error, size_t error_size);

/// Makes a PNG thumbnail of a video from a frame a tenth of the way in (past a black opening),
/// with ffmpegthumbnailer (FFmpeg's decoders), then as `photolib_thumbnail_make` does. Returns 0 or -1.
int photolib_thumbnail_video(const char *path, const char *uri, int64_t mtime, photolib_thumbnail_limits limits,
                             void **png, size_t *length, char *error, size_t error_size);

/// The width and height libvips reads from a file's header, without decoding pixels. Returns 0 or -1.
int photolib_thumbnail_dimensions(const char *path, int *width, int *height, char *error, size_t error_size);

/// As `photolib_thumbnail_make`, for an image already in memory (a raw file's JPEG preview).
int photolib_thumbnail_make_buffer(const void *bytes, size_t bytes_length, const char *uri, int64_t mtime,
                                   photolib_thumbnail_limits limits, void **png, size_t *length, char *error, size_t error_size);

void photolib_thumbnail_free(void *png);

/// Writes the image at `path` whole as a JPEG (quality 90) to the open descriptor `out_fd`, for an
/// app that cannot read the original's format: its Exif, XMP and ICC profile are carried (the
/// caller takes out what the app may not have), its orientation tag kept. Refused before decoding
/// past `limits.max_pixels`, stopped past `limits.max_seconds` (`limits.size` is unused). Returns
/// 0, or -1 with a sentence in `error`.
int photolib_convert_jpeg(const char *path, int out_fd, photolib_thumbnail_limits limits, char *error, size_t error_size);


#endif
