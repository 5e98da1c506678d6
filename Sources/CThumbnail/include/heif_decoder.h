#ifndef PHOTOLIB_HEIF_DECODER_H
#define PHOTOLIB_HEIF_DECODER_H
// photolibd's HEVC decoder for libheif (libde265 with a worker thread per core), which libvips'
// HEIF loader then uses: see heif_decoder.c for why.

#define PHOTOLIB_HEIF_DECODER_ID "photolibd-libde265"
#define PHOTOLIB_HEIF_DECODER_NAME "photolibd's libde265 HEVC decoder, a worker thread per core"

/// Registers the decoder with libheif for this process, with `threads` worker threads a picture.
/// Returns 0, or -1 when libheif refused it (its own decoder then decodes, as before).
int photolib_heif_register_decoder(int threads);

/// The ID of the decoder libheif chooses for HEVC now ("photolibd-libde265" once registered;
/// libheif's own "libde265" before), or NULL when it has none.
const char *photolib_heif_chosen_decoder(void);

#endif
