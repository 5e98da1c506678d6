// CMetadata.h's functions, each handing its call to libphotolibd-metadata.so, which is loaded by the
// first of them: exiv2 and the C++ runtime (4 MB of the daemon's memory, a millisecond of its start,
// measured) are mapped only once a photo's metadata is read or written, which a restart on an unchanged
// library never does. The library is found by the executable's run path, as the Swift runtime beside
// it is ($ORIGIN/../lib/photolibd installed, $ORIGIN in a build directory).
//
// A library that cannot be loaded is not an answer: every call fails (PLM_FAILED) with the loader's words.
#include "CMetadata.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// The soname scripts/check-licences (DLOPENED) and scripts/install name too.
static const char library_name[] = "libphotolibd-metadata.so";

static struct {
    void (*initialize)(void);
    plm_status (*inspect_file)(const char *, plm_fields, plm_inspection *, char *, size_t);
    plm_status (*inspect_bytes)(const uint8_t *, size_t, int, plm_fields, plm_inspection *, char *, size_t);
    plm_status (*strip_file)(const char *, plm_fields, plm_values, size_t *, char *, size_t);
    plm_status (*list_file)(const char *, plm_fields, char *, size_t, size_t *, char *, size_t);
    plm_status (*list_xmp)(const char *, size_t, plm_fields, char *, size_t, size_t *, char *, size_t);
    plm_status (*inspect_exif)(const uint8_t *, size_t, plm_fields, plm_inspection *, char *, size_t);
    plm_status (*strip_exif)(const uint8_t *, size_t, plm_fields, uint8_t *, size_t, size_t *, size_t *, char *, size_t);
    plm_status (*inspect_xmp)(const char *, size_t, plm_fields, plm_inspection *, char *, size_t);
    plm_status (*strip_xmp)(const char *, size_t, plm_fields, plm_values, char *, size_t, size_t *, size_t *, char *, size_t);
    plm_status (*list_previews)(const char *, plm_preview *, size_t, size_t *, char *, size_t);
    plm_status (*preview_jpeg)(const char *, size_t, uint8_t **, size_t *, char *, size_t);
    void (*free)(void *);
    int loaded;
    char problem[512];
} face;
static pthread_once_t face_loaded = PTHREAD_ONCE_INIT;

static void load_face(void) {
    void *library = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(face.problem, sizeof face.problem, "%s cannot be loaded: %s (reinstall photolibd)", library_name, why ? why : "");
        return;
    }
    int missing = 0;
#define FIND(field, symbol) \
    if (!(*(void **)&face.field = dlsym(library, symbol))) missing = 1;
    FIND(initialize, "plm_initialize")
    FIND(inspect_file, "plm_inspect_file")
    FIND(inspect_bytes, "plm_inspect_bytes")
    FIND(strip_file, "plm_strip_file")
    FIND(list_file, "plm_list_file")
    FIND(list_xmp, "plm_list_xmp")
    FIND(inspect_exif, "plm_inspect_exif")
    FIND(strip_exif, "plm_strip_exif")
    FIND(inspect_xmp, "plm_inspect_xmp")
    FIND(strip_xmp, "plm_strip_xmp")
    FIND(list_previews, "plm_list_previews")
    FIND(preview_jpeg, "plm_preview_jpeg")
    FIND(free, "plm_free")
#undef FIND
    if (missing) {
        snprintf(face.problem, sizeof face.problem, "%s lacks a function this photolibd calls (another version's; reinstall photolibd)",
                 library_name);
        return;
    }
    // exiv2's XMP toolkit is set up once, before any call can run on another thread.
    face.initialize();
    face.loaded = 1;
}

// Loads the library on the first call; false (and the reason in `error`) when it cannot be.
static int ready(char *error, size_t error_size) {
    pthread_once(&face_loaded, load_face);
    if (face.loaded) return 1;
    if (error_size > 0) snprintf(error, error_size, "%s", face.problem);
    return 0;
}

void plm_initialize(void) { pthread_once(&face_loaded, load_face); }

plm_status plm_inspect_file(const char *path, plm_fields fields, plm_inspection *out, char *error, size_t error_size) {
    return ready(error, error_size) ? face.inspect_file(path, fields, out, error, error_size) : PLM_FAILED;
}

plm_status plm_inspect_bytes(const uint8_t *bytes, size_t size, int whole, plm_fields fields, plm_inspection *out, char *error,
                             size_t error_size) {
    return ready(error, error_size) ? face.inspect_bytes(bytes, size, whole, fields, out, error, error_size) : PLM_FAILED;
}

plm_status plm_strip_file(const char *path, plm_fields fields, plm_values drop, size_t *removed, char *error, size_t error_size) {
    return ready(error, error_size) ? face.strip_file(path, fields, drop, removed, error, error_size) : PLM_FAILED;
}

plm_status plm_list_file(const char *path, plm_fields fields, char *out, size_t capacity, size_t *needed, char *error,
                         size_t error_size) {
    return ready(error, error_size) ? face.list_file(path, fields, out, capacity, needed, error, error_size) : PLM_FAILED;
}

plm_status plm_list_xmp(const char *packet, size_t size, plm_fields fields, char *out, size_t capacity, size_t *needed,
                        char *error, size_t error_size) {
    return ready(error, error_size) ? face.list_xmp(packet, size, fields, out, capacity, needed, error, error_size) : PLM_FAILED;
}

plm_status plm_inspect_exif(const uint8_t *tiff, size_t size, plm_fields fields, plm_inspection *out, char *error, size_t error_size) {
    return ready(error, error_size) ? face.inspect_exif(tiff, size, fields, out, error, error_size) : PLM_FAILED;
}

plm_status plm_strip_exif(const uint8_t *tiff, size_t size, plm_fields fields, uint8_t *out, size_t capacity,
                          size_t *out_size, size_t *removed, char *error, size_t error_size) {
    return ready(error, error_size) ? face.strip_exif(tiff, size, fields, out, capacity, out_size, removed, error, error_size) : PLM_FAILED;
}

plm_status plm_inspect_xmp(const char *packet, size_t size, plm_fields fields, plm_inspection *out, char *error, size_t error_size) {
    return ready(error, error_size) ? face.inspect_xmp(packet, size, fields, out, error, error_size) : PLM_FAILED;
}

plm_status plm_strip_xmp(const char *packet, size_t size, plm_fields fields, plm_values drop, char *out, size_t capacity,
                         size_t *out_size, size_t *removed, char *error, size_t error_size) {
    return ready(error, error_size) ? face.strip_xmp(packet, size, fields, drop, out, capacity, out_size, removed, error, error_size)
                                    : PLM_FAILED;
}

plm_status plm_list_previews(const char *path, plm_preview *out, size_t capacity, size_t *count, char *error, size_t error_size) {
    return ready(error, error_size) ? face.list_previews(path, out, capacity, count, error, error_size) : PLM_FAILED;
}

plm_status plm_preview_jpeg(const char *path, size_t index, uint8_t **bytes, size_t *size, char *error, size_t error_size) {
    return ready(error, error_size) ? face.preview_jpeg(path, index, bytes, size, error, error_size) : PLM_FAILED;
}

void plm_free(void *pointer) {
    // Only what a loaded library handed over can be here; free(NULL) is nothing either way.
    if (face.loaded) face.free(pointer);
}
