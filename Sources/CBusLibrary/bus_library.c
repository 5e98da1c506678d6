#include "bus_library.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// The soname scripts/check-licences (DLOPENED) and scripts/install name too.
static const char library_name[] = "libphotolibd-bus.so";
static void *library;
static char problem[512];
static pthread_once_t loaded = PTHREAD_ONCE_INIT;

static void load(void) {
    library = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(problem, sizeof problem, "%s cannot be loaded: %s (reinstall photolibd)", library_name, why ? why : "");
    }
}

int photolib_bus_ready(char *error, size_t error_size) {
    pthread_once(&loaded, load);
    if (!library && error && error_size > 0) snprintf(error, error_size, "%s", problem);
    return library != NULL;
}

void *photolib_bus_symbol(const char *name) {
    pthread_once(&loaded, load);
    return library ? dlsym(library, name) : NULL;
}
