// Debian's libgeonames (libgeonames0): GeoNames' cities of 15,000 people or more, compiled into the
// library. Loaded with dlopen when a photo first needs a place named, not linked: linked, it and the
// GLib, GIO and libmount stack it needs were mapped and bound at every start of the daemon (a
// millisecond and 3 MB of the daemon's memory at rest), though most starts name no place.
//
// libgeonames' API names a city's fields one by one and translates them with the process's locale;
// photolibd wants the raw record (the IDs its catalogs are keyed by too), so this reads the city's
// GVariant, "(sssssssudd)": id, name, admin1 code, admin1 name, country code, country name, time
// zone, population, latitude, longitude.
#ifndef PHOTOLIBD_CGEONAMES_H
#define PHOTOLIBD_CGEONAMES_H

#include <stddef.h>

typedef struct {
    const char *id;
    const char *name;
    const char *regionCode;
    const char *region;
    const char *countryCode;
    const char *country;
    double latitude;
    double longitude;
    unsigned int population;
} photolibd_city;

/// Loads libgeonames once (later calls return the first outcome). Returns the number of cities it
/// holds, or -1 with dlerror's words (or the function it lacks) in `error`.
int photolibd_geonames_load(char *error, size_t error_size);

/// Fills `out` with the fields of city `index` (after a load that succeeded); the strings point into
/// `*city`, which the caller frees with photolibd_geonames_city_free once it has copied them.
/// Returns 0 when the record is not of the shape above (another libgeonames), leaving `*city` NULL.
int photolibd_geonames_city(int index, photolibd_city *out, void **city);

/// Frees a city photolibd_geonames_city returned.
void photolibd_geonames_city_free(void *city);

#endif
