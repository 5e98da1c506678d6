// Debian's libgeonames (libgeonames-dev): GeoNames' cities of 15,000 people or more, compiled
// into the library. Its API names a city's fields one by one and translates them with the
// process's locale; photolibd wants the raw record (the IDs its catalogs are keyed by too), so
// this reads the city's GVariant, "(sssssssudd)": id, name, admin1 code, admin1 name, country
// code, country name, time zone, population, latitude, longitude.
#ifndef PHOTOLIBD_CGEONAMES_H
#define PHOTOLIBD_CGEONAMES_H

#include <geonames/geonames.h>
#include <string.h>

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

/// Fills `out` with the fields of city `index`; the strings point into `*city`, which the caller
/// frees with geonames_city_free once it has copied them. Returns 0 when the record is not of
/// the shape above (another libgeonames), leaving `*city` NULL.
static inline int photolibd_geonames_city(int index, photolibd_city *out, GeonamesCity **city) {
    *city = geonames_get_city(index);
    if (*city == NULL) return 0;
    if (strcmp(g_variant_get_type_string(*city), "(sssssssudd)") != 0) {
        geonames_city_free(*city);
        *city = NULL;
        return 0;
    }
    const char *timezone;
    guint32 population;
    g_variant_get(*city, "(&s&s&s&s&s&s&sudd)", &out->id, &out->name, &out->regionCode, &out->region, &out->countryCode,
                  &out->country, &timezone, &population, &out->latitude, &out->longitude);
    out->population = population;
    return 1;
}

#endif
