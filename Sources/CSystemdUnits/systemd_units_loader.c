// systemd_units.h's functions, each handing its call to libphotolibd-bus.so (see bus_library.h).
#include "systemd_units.h"
#include "bus_library.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>

typedef int (*unit_call)(const char *, const char *const *, size_t, unsigned long long, char *, size_t);
static struct {
    unit_call hand_over;
    unit_call retire;
} face;
static pthread_once_t resolved = PTHREAD_ONCE_INIT;

static void resolve(void) {
    if (!photolib_bus_ready(NULL, 0)) return;
    *(void **)&face.hand_over = photolib_bus_symbol("photolib_units_hand_over");
    *(void **)&face.retire = photolib_bus_symbol("photolib_units_retire");
}

// Without the library (or a function of it): -ELIBACC, with the loader's words in `failure`.
static int call(unit_call function, const char *name, const char *socket_path, const char *const *units, size_t count,
                unsigned long long timeout_usec, char *failure, size_t failure_size) {
    pthread_once(&resolved, resolve);
    if (!function) {
        if (photolib_bus_ready(failure, failure_size) && failure_size > 0)
            snprintf(failure, failure_size, "libphotolibd-bus.so lacks %s (another version's; reinstall photolibd)", name);
        return -ELIBACC;
    }
    return function(socket_path, units, count, timeout_usec, failure, failure_size);
}

int photolib_units_hand_over(const char *socket_path, const char *const *units, size_t count, unsigned long long timeout_usec,
                             char *failure, size_t failure_size) {
    pthread_once(&resolved, resolve);
    return call(face.hand_over, "photolib_units_hand_over", socket_path, units, count, timeout_usec, failure, failure_size);
}

int photolib_units_retire(const char *socket_path, const char *const *units, size_t count, unsigned long long timeout_usec,
                          char *failure, size_t failure_size) {
    pthread_once(&resolved, resolve);
    return call(face.retire, "photolib_units_retire", socket_path, units, count, timeout_usec, failure, failure_size);
}
