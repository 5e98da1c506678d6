#include "CGeonames.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

// libgeonames' and GLib's functions, as their headers declare them (gint is int, gchar char,
// GeonamesCity a GVariant): the headers are not included, so this target needs no GLib to build.
static struct {
    int (*count)(void);
    void *(*city)(int index);
    void (*city_free)(void *city);
    const char *(*type_string)(void *variant);
    void (*get)(void *variant, const char *format, ...);
    int cities;
    char problem[384];
} geonames;
static pthread_once_t geonames_loaded = PTHREAD_ONCE_INIT;
// The soname scripts/check-licences (DLOPENED) and the package's Depends (scripts/make-deb) name too.
static const char library_name[] = "libgeonames.so.0";

static void load_geonames(void) {
    geonames.cities = -1;
    void *library = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(geonames.problem, sizeof geonames.problem, "%s", why ? why : library_name);
        return;
    }
    // A handle's dlsym searches the library's own dependencies too: GLib's functions come from the
    // GLib libgeonames was built against.
    *(void **)&geonames.count = dlsym(library, "geonames_get_n_cities");
    *(void **)&geonames.city = dlsym(library, "geonames_get_city");
    *(void **)&geonames.city_free = dlsym(library, "geonames_city_free");
    *(void **)&geonames.type_string = dlsym(library, "g_variant_get_type_string");
    *(void **)&geonames.get = dlsym(library, "g_variant_get");
    if (!geonames.count || !geonames.city || !geonames.city_free || !geonames.type_string || !geonames.get) {
        snprintf(geonames.problem, sizeof geonames.problem, "%s lacks a function photolibd calls (geonames_get_city, or GLib's g_variant_get)",
                 library_name);
        return;
    }
    geonames.cities = geonames.count();
}

int photolibd_geonames_load(char *error, size_t error_size) {
    pthread_once(&geonames_loaded, load_geonames);
    if (geonames.cities < 0 && error_size > 0) snprintf(error, error_size, "%s", geonames.problem);
    return geonames.cities;
}

int photolibd_geonames_city(int index, photolibd_city *out, void **city) {
    *city = NULL;
    if (geonames.cities < 0 || index < 0 || index >= geonames.cities) return 0;
    void *record = geonames.city(index);
    if (record == NULL) return 0;
    if (strcmp(geonames.type_string(record), "(sssssssudd)") != 0) {
        geonames.city_free(record);
        return 0;
    }
    const char *timezone;
    uint32_t population;
    geonames.get(record, "(&s&s&s&s&s&s&sudd)", &out->id, &out->name, &out->regionCode, &out->region, &out->countryCode,
                 &out->country, &timezone, &population, &out->latitude, &out->longitude);
    out->population = population;
    *city = record;
    return 1;
}

void photolibd_geonames_city_free(void *city) {
    if (city != NULL && geonames.city_free != NULL) geonames.city_free(city);
}
