#include "thumbnail_names.h"

#include <stdio.h>
#include <glib.h>

void photolib_names_md5(const char *text, char out[33]) {
    gchar *sum = g_compute_checksum_for_string(G_CHECKSUM_MD5, text, -1);
    snprintf(out, 33, "%s", sum ? sum : "");
    g_free(sum);
}

char *photolib_names_file_uri(const char *path) { return g_filename_to_uri(path, NULL, NULL); }

void photolib_names_free(void *pointer) { g_free(pointer); }
