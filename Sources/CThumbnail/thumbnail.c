#include "thumbnail.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <libffmpegthumbnailer/videothumbnailerc.h>
#include <vips/vips.h>

static void say(char *error, size_t error_size, const char *what) {
    const char *detail = vips_error_buffer();
    snprintf(error, error_size, "%s%s%s", what, detail && *detail ? ": " : "", detail ? detail : "");
    // libvips keeps its error text per process: take it now, and clear it.
    vips_error_clear();
    size_t n = strlen(error);
    while (n > 0 && (error[n - 1] == '\n' || error[n - 1] == ' ')) error[--n] = 0;
}

int photolib_thumbnail_start(const char *program, int threads, size_t cache_bytes) {
    if (VIPS_INIT(program) != 0) return -1;
    vips_concurrency_set(threads > 0 ? threads : 1);
    vips_cache_set_max_mem(cache_bytes);
    vips_cache_set_max(64);
    return 0;
}

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

// Called as libvips computes pixels: past the deadline, it asks libvips to stop.
static void on_eval(VipsImage *image, VipsProgress *progress, void *deadline) {
    (void)progress;
    if (now_seconds() > *(double *)deadline) vips_image_set_kill(image, TRUE);
}

static int save_png(VipsImage *thumb, const char *uri, int64_t mtime, photolib_thumbnail_limits limits,
                    void **png, size_t *length, char *error, size_t error_size);

int photolib_thumbnail_dimensions(const char *path, int *width, int *height, char *error, size_t error_size) {
    VipsImage *header = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (!header) {
        say(error, error_size, "cannot read the image's header");
        return -1;
    }
    *width = vips_image_get_width(header);
    *height = vips_image_get_height(header);
    g_object_unref(header);
    return 0;
}

int photolib_thumbnail_make(const char *path, const char *uri, int64_t mtime, photolib_thumbnail_limits limits,
                            void **png, size_t *length, char *error, size_t error_size) {
    int width = 0, height = 0;
    if (photolib_thumbnail_dimensions(path, &width, &height, error, error_size) != 0) return -1;
    if ((int64_t)width * (int64_t)height > limits.max_pixels) {
        snprintf(error, error_size, "the image claims %d x %d pixels, more than the %lld allowed", width, height,
                 (long long)limits.max_pixels);
        return -1;
    }
    VipsImage *thumb = NULL;
    if (vips_thumbnail(path, &thumb, limits.size, "height", limits.size, "size", VIPS_SIZE_DOWN,
                       "fail_on", VIPS_FAIL_ON_ERROR, NULL) != 0) {
        say(error, error_size, "cannot make a thumbnail");
        return -1;
    }
    return save_png(thumb, uri, mtime, limits, png, length, error, error_size);
}

// Writes `thumb` as a PNG with the cache's two fields and none of the original's metadata; takes `thumb`.
static int save_png(VipsImage *thumb, const char *uri, int64_t mtime, photolib_thumbnail_limits limits,
                    void **png, size_t *length, char *error, size_t error_size) {
    double deadline = now_seconds() + limits.max_seconds;
    vips_image_set_progress(thumb, TRUE);
    g_signal_connect(thumb, "eval", G_CALLBACK(on_eval), &deadline);
    // The thumbnail would carry the original's metadata, a GPS tag included: keep none of it.
    const char *carried[] = {"exif-data", "xmp-data", "iptc-data", "icc-profile-data", NULL};
    for (int i = 0; carried[i]; i++) vips_image_remove(thumb, carried[i]);
    char mtime_text[32];
    snprintf(mtime_text, sizeof mtime_text, "%lld", (long long)mtime);
    vips_image_set_string(thumb, "png-comment-0-Thumb::URI", uri);
    vips_image_set_string(thumb, "png-comment-1-Thumb::MTime", mtime_text);
    int failed = vips_pngsave_buffer(thumb, png, length, "compression", 3, "strip", FALSE, NULL);
    int killed = now_seconds() > deadline;
    g_object_unref(thumb);
    if (failed != 0) {
        say(error, error_size, killed ? "decoding took longer than allowed" : "cannot encode the thumbnail");
        return -1;
    }
    return 0;
}

void photolib_thumbnail_free(void *png) { g_free(png); }

void photolib_thumbnail_md5(const char *text, char out[33]) {
    gchar *sum = g_compute_checksum_for_string(G_CHECKSUM_MD5, text, -1);
    snprintf(out, 33, "%s", sum ? sum : "");
    g_free(sum);
}

int64_t photolib_thumbnail_cached_mtime(const char *path) {
    VipsImage *image = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (!image) {
        vips_error_clear();
        return -1;
    }
    int64_t mtime = -1;
    gchar **fields = vips_image_get_fields(image);
    for (int i = 0; fields && fields[i]; i++) {
        const char *name = fields[i];
        const char *suffix = "-Thumb::MTime";
        size_t n = strlen(name), m = strlen(suffix);
        if (strncmp(name, "png-comment-", 12) == 0 && n > m && strcmp(name + n - m, suffix) == 0) {
            const char *value = NULL;
            if (vips_image_get_string(image, name, &value) == 0 && value) mtime = g_ascii_strtoll(value, NULL, 10);
        }
    }
    g_strfreev(fields);
    g_object_unref(image);
    return mtime;
}

char *photolib_thumbnail_file_uri(const char *path) { return g_filename_to_uri(path, NULL, NULL); }

int photolib_thumbnail_video(const char *path, const char *uri, int64_t mtime, photolib_thumbnail_limits limits,
                             void **png, size_t *length, char *error, size_t error_size) {
    video_thumbnailer *thumbnailer = video_thumbnailer_create();
    image_data *frame = video_thumbnailer_create_image_data();
    if (!thumbnailer || !frame) {
        snprintf(error, error_size, "ffmpegthumbnailer could not start");
        if (thumbnailer) video_thumbnailer_destroy(thumbnailer);
        if (frame) video_thumbnailer_destroy_image_data(frame);
        return -1;
    }
    video_thumbnailer_set_size(thumbnailer, limits.size, 0);
    thumbnailer->thumbnail_image_type = Rgb;
    thumbnailer->seek_percentage = 10;
    thumbnailer->overlay_film_strip = 0;
    thumbnailer->maintain_aspect_ratio = 1;
    int status = video_thumbnailer_generate_thumbnail_to_buffer(thumbnailer, path, frame);
    int result = -1;
    if (status != 0 || !frame->image_data_ptr || frame->image_data_width <= 0 || frame->image_data_height <= 0) {
        snprintf(error, error_size, "no frame could be read from the video");
    } else {
        VipsImage *image = vips_image_new_from_memory_copy(frame->image_data_ptr, (size_t)frame->image_data_size,
                                                           frame->image_data_width, frame->image_data_height, 3, VIPS_FORMAT_UCHAR);
        if (!image) {
            say(error, error_size, "cannot take the video's frame");
        } else {
            image->Type = VIPS_INTERPRETATION_sRGB;
            result = save_png(image, uri, mtime, limits, png, length, error, error_size);
        }
    }
    video_thumbnailer_destroy_image_data(frame);
    video_thumbnailer_destroy(thumbnailer);
    return result;
}
