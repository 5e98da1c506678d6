#include "thumbnail_names.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// GLib's functions as glib.h declares them (gchar is char, gssize long, GChecksumType an enum
// whose G_CHECKSUM_MD5 is 0, GError an opaque struct): the header is not included, so this target
// needs no GLib to build.
enum { checksum_md5 = 0 };
static struct {
    char *(*checksum)(int type, const char *text, long length);
    char *(*to_uri)(const char *filename, const char *hostname, void **error);
    void (*free)(void *pointer);
    int loaded;
    char problem[384];
} glib;
static pthread_once_t glib_loaded = PTHREAD_ONCE_INIT;
// The soname scripts/check-licences (DLOPENED) names too.
static const char library_name[] = "libglib-2.0.so.0";

static void load_glib(void) {
    void *library = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(glib.problem, sizeof glib.problem, "%s cannot be loaded: %s (install it: Debian's package is libglib2.0-0)",
                 library_name, why ? why : "");
        return;
    }
    *(void **)&glib.checksum = dlsym(library, "g_compute_checksum_for_string");
    *(void **)&glib.to_uri = dlsym(library, "g_filename_to_uri");
    *(void **)&glib.free = dlsym(library, "g_free");
    if (!glib.checksum || !glib.to_uri || !glib.free) {
        snprintf(glib.problem, sizeof glib.problem, "%s lacks a function photolibd calls (g_compute_checksum_for_string, g_filename_to_uri)",
                 library_name);
        return;
    }
    glib.loaded = 1;
}

int photolib_names_ready(char *error, size_t error_size) {
    pthread_once(&glib_loaded, load_glib);
    if (!glib.loaded && error_size > 0) snprintf(error, error_size, "%s", glib.problem);
    return glib.loaded;
}

void photolib_names_md5(const char *text, char out[33]) {
    char *sum = glib.checksum(checksum_md5, text, -1);
    snprintf(out, 33, "%s", sum ? sum : "");
    glib.free(sum);
}

char *photolib_names_file_uri(const char *path) { return glib.to_uri(path, NULL, NULL); }

void photolib_names_free(void *pointer) { glib.free(pointer); }
