#include "thumbnail.h"
#include "heif_decoder.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
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
    // HEIC's pictures decoded with as many threads as libvips has for the image; were libheif to
    // refuse the decoder, its own would decode, one thread a picture, as before.
    (void)photolib_heif_register_decoder(threads);
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
static int with_cache_fields(const void *bare, size_t bare_length, const char *uri, const char *mtime_text, void **png, size_t *length);

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

// 0 when the image's header claims no more pixels than the limits allow; else -1, with why.
static int within_pixels(const char *path, photolib_thumbnail_limits limits, char *error, size_t error_size) {
    int width = 0, height = 0;
    if (photolib_thumbnail_dimensions(path, &width, &height, error, error_size) != 0) return -1;
    if ((int64_t)width * (int64_t)height > limits.max_pixels) {
        snprintf(error, error_size, "the image claims %d x %d pixels, more than the %lld allowed", width, height,
                 (long long)limits.max_pixels);
        return -1;
    }
    return 0;
}

int photolib_thumbnail_make(const char *path, const char *uri, int64_t mtime, photolib_thumbnail_limits limits,
                            void **png, size_t *length, char *error, size_t error_size) {
    if (within_pixels(path, limits, error, error_size) != 0) return -1;
    VipsImage *thumb = NULL;
    if (vips_thumbnail(path, &thumb, limits.size, "height", limits.size, "size", VIPS_SIZE_DOWN,
                       "fail_on", VIPS_FAIL_ON_ERROR, NULL) != 0) {
        say(error, error_size, "cannot make a thumbnail");
        return -1;
    }
    return save_png(thumb, uri, mtime, limits, png, length, error, error_size);
}

int photolib_convert_jpeg(const char *path, int out_fd, photolib_thumbnail_limits limits, char *error, size_t error_size) {
    if (within_pixels(path, limits, error, error_size) != 0) return -1;
    VipsImage *image = vips_image_new_from_file(path, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
    if (!image) {
        say(error, error_size, "cannot read the image");
        return -1;
    }
    double deadline = now_seconds() + limits.max_seconds;
    vips_image_set_progress(image, TRUE);
    g_signal_connect(image, "eval", G_CALLBACK(on_eval), &deadline);
    VipsTarget *target = vips_target_new_to_descriptor(out_fd);
    if (!target) {
        g_object_unref(image);
        say(error, error_size, "cannot write to the copy");
        return -1;
    }
    int failed = vips_jpegsave_target(image, target, "Q", 90, NULL);
    int killed = now_seconds() > deadline;
    g_object_unref(target);
    g_object_unref(image);
    if (failed != 0) {
        say(error, error_size, killed ? "converting took longer than allowed" : "cannot write the JPEG");
        return -1;
    }
    return 0;
}

int photolib_thumbnail_make_buffer(const void *bytes, size_t bytes_length, const char *uri, int64_t mtime,
                                   photolib_thumbnail_limits limits, void **png, size_t *length, char *error, size_t error_size) {
    VipsImage *header = vips_image_new_from_buffer(bytes, bytes_length, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (!header) {
        say(error, error_size, "cannot read the preview's header");
        return -1;
    }
    int64_t pixels = (int64_t)vips_image_get_width(header) * (int64_t)vips_image_get_height(header);
    g_object_unref(header);
    if (pixels > limits.max_pixels) {
        snprintf(error, error_size, "the preview claims %lld pixels, more than the %lld allowed", (long long)pixels,
                 (long long)limits.max_pixels);
        return -1;
    }
    VipsImage *thumb = NULL;
    // libvips reads the buffer without copying it: it outlives `thumb`, which save_png takes and frees.
    if (vips_thumbnail_buffer((void *)bytes, bytes_length, &thumb, limits.size, "height", limits.size, "size", VIPS_SIZE_DOWN,
                              "fail_on", VIPS_FAIL_ON_ERROR, NULL) != 0) {
        say(error, error_size, "cannot make a thumbnail of the preview");
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
    // The thumbnail would carry the original's metadata, a GPS tag included: keep none of it
    // (and strip what libvips would add), then add only the cache's two fields.
    const char *carried[] = {"exif-data", "xmp-data", "iptc-data", "icc-profile-data", NULL};
    for (int i = 0; carried[i]; i++) vips_image_remove(thumb, carried[i]);
    void *bare = NULL;
    size_t bare_length = 0;
    int failed = vips_pngsave_buffer(thumb, &bare, &bare_length, "compression", 3, "strip", TRUE, NULL);
    int killed = now_seconds() > deadline;
    g_object_unref(thumb);
    if (failed != 0) {
        say(error, error_size, killed ? "decoding took longer than allowed" : "cannot encode the thumbnail");
        return -1;
    }
    char mtime_text[32];
    snprintf(mtime_text, sizeof mtime_text, "%lld", (long long)mtime);
    if (with_cache_fields(bare, bare_length, uri, mtime_text, png, length) != 0) {
        g_free(bare);
        snprintf(error, error_size, "cannot encode the thumbnail (its PNG has no header where expected)");
        return -1;
    }
    g_free(bare);
    return 0;
}

static uint32_t crc32_of(const unsigned char *bytes, size_t count, uint32_t crc) {
    crc = ~crc;
    for (size_t i = 0; i < count; i++) {
        crc ^= bytes[i];
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static unsigned char *put_text_chunk(unsigned char *out, const char *keyword, const char *text) {
    size_t k = strlen(keyword), t = strlen(text), n = k + 1 + t;
    out[0] = (unsigned char)(n >> 24); out[1] = (unsigned char)(n >> 16); out[2] = (unsigned char)(n >> 8); out[3] = (unsigned char)n;
    memcpy(out + 4, "tEXt", 4);
    memcpy(out + 8, keyword, k);
    out[8 + k] = 0;
    memcpy(out + 9 + k, text, t);
    uint32_t crc = crc32_of(out + 4, 4 + n, 0);
    unsigned char *end = out + 8 + n;
    end[0] = (unsigned char)(crc >> 24); end[1] = (unsigned char)(crc >> 16); end[2] = (unsigned char)(crc >> 8); end[3] = (unsigned char)crc;
    return end + 4;
}

// The standard's fields as plain tEXt chunks right after IHDR, where every reader looks first
// (libvips would write them compressed, as zTXt): one read of the file tells whether it is current.
static int with_cache_fields(const void *bare, size_t bare_length, const char *uri, const char *mtime_text, void **png, size_t *length) {
    const size_t header = 8 + 25;  // signature, then IHDR: always first, 13 bytes of data
    const unsigned char *in = bare;
    if (bare_length < header || memcmp(in + 12, "IHDR", 4) != 0) return -1;
    size_t extra = 2 * 12 + strlen("Thumb::URI") + 1 + strlen(uri) + strlen("Thumb::MTime") + 1 + strlen(mtime_text);
    unsigned char *out = g_malloc(bare_length + extra);
    memcpy(out, in, header);
    unsigned char *at = put_text_chunk(out + header, "Thumb::URI", uri);
    at = put_text_chunk(at, "Thumb::MTime", mtime_text);
    memcpy(at, in + header, bare_length - header);
    *png = out;
    *length = bare_length + extra;
    return 0;
}

void photolib_thumbnail_free(void *png) { g_free(png); }

// ffmpegthumbnailer, and FFmpeg's hundred libraries behind it, are loaded when the first video is
// shown, not linked: linked, the dynamic loader bound them at every start of this executable, which
// is also the daemon's converter of one picked photo (`--to-jpeg`), started once per photo; that
// start was a third of the converter's lag behind `vips copy`. Debian's package names the library
// in its Depends by hand (scripts/make-deb), as dpkg-shlibdeps cannot see a dlopen.
static struct {
    video_thumbnailer *(*create)(void);
    void (*destroy)(video_thumbnailer *);
    image_data *(*create_image_data)(void);
    void (*destroy_image_data)(image_data *);
    int (*set_size)(video_thumbnailer *, int, int);
    int (*to_buffer)(video_thumbnailer *, const char *, image_data *);
    char problem[384];
} video;
static pthread_once_t video_loaded = PTHREAD_ONCE_INIT;

static void load_video(void) {
    const char *name = "libffmpegthumbnailer.so.4";
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(video.problem, sizeof video.problem, "videos cannot be read: %s (install ffmpegthumbnailer's library; Debian: libffmpegthumbnailer4v5)",
                 why ? why : name);
        return;
    }
    *(void **)&video.create = dlsym(library, "video_thumbnailer_create");
    *(void **)&video.destroy = dlsym(library, "video_thumbnailer_destroy");
    *(void **)&video.create_image_data = dlsym(library, "video_thumbnailer_create_image_data");
    *(void **)&video.destroy_image_data = dlsym(library, "video_thumbnailer_destroy_image_data");
    *(void **)&video.set_size = dlsym(library, "video_thumbnailer_set_size");
    *(void **)&video.to_buffer = dlsym(library, "video_thumbnailer_generate_thumbnail_to_buffer");
    if (!video.create || !video.destroy || !video.create_image_data || !video.destroy_image_data || !video.set_size || !video.to_buffer) {
        snprintf(video.problem, sizeof video.problem, "videos cannot be read: %s lacks a function photolibd calls (a version older than 2.0?)", name);
        video.create = NULL;
    }
}

int photolib_thumbnail_video(const char *path, const char *uri, int64_t mtime, photolib_thumbnail_limits limits,
                             void **png, size_t *length, char *error, size_t error_size) {
    pthread_once(&video_loaded, load_video);
    if (!video.create) {
        snprintf(error, error_size, "%s", video.problem);
        return -1;
    }
    video_thumbnailer *thumbnailer = video.create();
    image_data *frame = video.create_image_data();
    if (!thumbnailer || !frame) {
        snprintf(error, error_size, "ffmpegthumbnailer could not start");
        if (thumbnailer) video.destroy(thumbnailer);
        if (frame) video.destroy_image_data(frame);
        return -1;
    }
    video.set_size(thumbnailer, limits.size, 0);
    thumbnailer->thumbnail_image_type = Rgb;
    thumbnailer->seek_percentage = 10;
    thumbnailer->overlay_film_strip = 0;
    thumbnailer->maintain_aspect_ratio = 1;
    int status = video.to_buffer(thumbnailer, path, frame);
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
    video.destroy_image_data(frame);
    video.destroy(thumbnailer);
    return result;
}
