// photolibd's HEVC decoder for libheif: libde265, as libheif's own plugin uses it, with a worker
// thread per core instead of one.
//
// A phone-sized HEIC that is one coded picture (not a grid of tiles) is decoded by libheif's
// libde265 plugin on a single worker thread, whatever the machine: 0.76-0.84 s of the ~1 s a
// HEIC -> JPEG conversion of a 4032 x 3024 photo took, the rest being the JPEG's encoding.
// libde265 decodes the rows of a picture coded with wavefronts (x265's default, and phones')
// in parallel when it has the threads: 0.53-0.56 s with two. Registered with a higher priority
// than libheif's own, so libvips' HEIF loader (which asks libheif) decodes with it.
#include "heif_decoder.h"

#include <libde265/de265.h>
#include <libheif/heif.h>
#include <libheif/heif_plugin.h>
#include <stdlib.h>
#include <string.h>

static int worker_threads = 1;

typedef struct {
    de265_decoder_context *context;
    int strict;
} decoder;

static const struct heif_error ok = {heif_error_Ok, heif_suberror_Unspecified, "Success"};

static struct heif_error failure(enum heif_suberror_code code, const char *message) {
    return (struct heif_error){heif_error_Decoder_plugin_error, code, message};
}

static const char *plugin_name(void) { return PHOTOLIB_HEIF_DECODER_NAME; }

static void init_plugin(void) { de265_init(); }

static void deinit_plugin(void) { de265_free(); }

static int does_support_format(enum heif_compression_format format) {
    // Above libheif's libde265 plugin (100), so this one is chosen for HEVC.
    return format == heif_compression_HEVC ? 110 : 0;
}

static struct heif_error new_decoder(void **out) {
    decoder *d = calloc(1, sizeof *d);
    if (!d) return failure(heif_suberror_Unspecified, "out of memory");
    d->context = de265_new_decoder();
    if (!d->context) {
        free(d);
        return failure(heif_suberror_Unspecified, "libde265 did not start a decoder");
    }
    if (de265_start_worker_threads(d->context, worker_threads) != DE265_OK) {
        de265_free_decoder(d->context);
        free(d);
        return failure(heif_suberror_Unspecified, "libde265 did not start its worker threads");
    }
    *out = d;
    return ok;
}

static void free_decoder(void *raw) {
    decoder *d = raw;
    de265_free_decoder(d->context);
    free(d);
}

static void set_strict_decoding(void *raw, int flag) { ((decoder *)raw)->strict = flag; }

// libheif hands the picture's NAL units each behind a 4-byte big-endian length.
static struct heif_error push_data(void *raw, const void *data, size_t size) {
    decoder *d = raw;
    const uint8_t *bytes = data;
    size_t at = 0;
    while (at < size) {
        if (size - at < 4) return failure(heif_suberror_End_of_data, "a NAL unit's length is cut short");
        uint32_t length = (uint32_t)bytes[at] << 24 | (uint32_t)bytes[at + 1] << 16 | (uint32_t)bytes[at + 2] << 8 | bytes[at + 3];
        at += 4;
        if (length > size - at) return failure(heif_suberror_End_of_data, "a NAL unit runs past the data");
        if (de265_push_NAL(d->context, bytes + at, length, 0, NULL) != DE265_OK) {
            return failure(heif_suberror_Unspecified, "libde265 refused a NAL unit");
        }
        at += length;
    }
    return ok;
}

// The decoded picture's planes copied into a heif_image, with the colour description its
// bitstream gives (libheif converts to RGB by it, as for its own plugin's pictures).
static struct heif_error to_heif_image(const struct de265_image *picture, struct heif_image **out) {
    int mono = de265_get_chroma_format(picture) == de265_chroma_mono;
    int bits = de265_get_bits_per_pixel(picture, 0);
    struct heif_error error = heif_image_create(de265_get_image_width(picture, 0), de265_get_image_height(picture, 0),
                                                mono ? heif_colorspace_monochrome : heif_colorspace_YCbCr,
                                                (enum heif_chroma)de265_get_chroma_format(picture), out);
    if (error.code) return error;
    static const enum heif_channel channels[3] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr};
    for (int plane = 0; plane < (mono ? 1 : 3); plane++) {
        int width = de265_get_image_width(picture, plane), height = de265_get_image_height(picture, plane);
        if (de265_get_bits_per_pixel(picture, plane) != bits) {
            heif_image_release(*out);
            *out = NULL;
            return (struct heif_error){heif_error_Unsupported_feature, heif_suberror_Unsupported_color_conversion,
                                       "planes of different bit depths"};
        }
        if (width <= 0 || height <= 0) {
            heif_image_release(*out);
            *out = NULL;
            return failure(heif_suberror_Invalid_image_size, "a plane without pixels");
        }
        error = heif_image_add_plane(*out, channels[plane], width, height, bits);
        if (error.code) {
            heif_image_release(*out);
            *out = NULL;
            return error;
        }
        int from_stride = 0, to_stride = 0;
        const uint8_t *from = de265_get_image_plane(picture, plane, &from_stride);
        uint8_t *to = heif_image_get_plane(*out, channels[plane], &to_stride);
        size_t row = (size_t)width * (size_t)((bits + 7) / 8);
        for (int y = 0; y < height; y++) memcpy(to + (size_t)y * (size_t)to_stride, from + (size_t)y * (size_t)from_stride, row);
    }
    struct heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc();
    if (nclx) {
        // An unknown value in the bitstream is left as libheif's default, as libheif's plugin does when not strict.
        heif_nclx_color_profile_set_color_primaries(nclx, (uint16_t)de265_get_image_colour_primaries(picture));
        heif_nclx_color_profile_set_transfer_characteristics(nclx, (uint16_t)de265_get_image_transfer_characteristics(picture));
        heif_nclx_color_profile_set_matrix_coefficients(nclx, (uint16_t)de265_get_image_matrix_coefficients(picture));
        nclx->full_range_flag = (uint8_t)(de265_get_image_full_range_flag(picture) != 0);
        heif_image_set_nclx_color_profile(*out, nclx);
        heif_nclx_color_profile_free(nclx);
    }
    return ok;
}

static struct heif_error decode_image(void *raw, struct heif_image **out) {
    decoder *d = raw;
    *out = NULL;
    if (de265_flush_data(d->context) != DE265_OK) return failure(heif_suberror_Unspecified, "libde265 could not end the stream");
    int more = 0;
    do {
        more = 0;
        de265_error decoded = de265_decode(d->context, &more);
        if (decoded != DE265_OK) {
            if (*out) heif_image_release(*out);
            *out = NULL;
            return failure(heif_suberror_Unspecified, de265_get_error_text(decoded));
        }
        const struct de265_image *picture = de265_get_next_picture(d->context);
        if (picture) {
            // An item is one picture; were there more, the last is the one kept, as libheif's plugin does.
            if (*out) heif_image_release(*out);
            *out = NULL;
            struct heif_error error = to_heif_image(picture, out);
            de265_release_next_picture(d->context);
            if (error.code) return error;
        }
    } while (more);
    if (!*out) return failure(heif_suberror_Unspecified, "libde265 gave no picture");
    return ok;
}

static const struct heif_decoder_plugin plugin = {
    .plugin_api_version = 3,
    .get_plugin_name = plugin_name,
    .init_plugin = init_plugin,
    .deinit_plugin = deinit_plugin,
    .does_support_format = does_support_format,
    .new_decoder = new_decoder,
    .free_decoder = free_decoder,
    .push_data = push_data,
    .decode_image = decode_image,
    .set_strict_decoding = set_strict_decoding,
    .id_name = PHOTOLIB_HEIF_DECODER_ID,
};

int photolib_heif_register_decoder(int threads) {
    worker_threads = threads > 0 ? threads : 1;
    // libheif registers its own plugins when first used: that comes first, so that this one is
    // added to them rather than before a registration that could start over.
    heif_init(NULL);
    return heif_register_decoder_plugin(&plugin).code == heif_error_Ok ? 0 : -1;
}

const char *photolib_heif_chosen_decoder(void) {
    const struct heif_decoder_descriptor *chosen[1] = {NULL};
    if (heif_get_decoder_descriptors(heif_compression_HEVC, chosen, 1) < 1 || !chosen[0]) return NULL;
    return heif_decoder_descriptor_get_id_name(chosen[0]);
}
