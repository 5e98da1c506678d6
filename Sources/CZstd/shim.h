// Zstandard (Debian libzstd-dev): the change log's event bodies are stored compressed, each a
// frame of its own that says its size (ZSTD_compress writes it), so one is read without the others.
#ifndef PHOTOLIBD_CZSTD_H
#define PHOTOLIBD_CZSTD_H

#include <zstd.h>

// The frame header's answers that are not sizes (macros Swift does not import).
static const unsigned long long photolibd_zstd_size_unknown = ZSTD_CONTENTSIZE_UNKNOWN;
static const unsigned long long photolibd_zstd_size_error = ZSTD_CONTENTSIZE_ERROR;

#endif
