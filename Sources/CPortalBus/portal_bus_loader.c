// portal_bus.h's functions, each handing its call to libphotolibd-bus.so (see bus_library.h).
#include "portal_bus.h"
#include "bus_library.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    int (*open)(photolib_portal **, const char *, const char *, photolib_portal_open_file, photolib_portal_closed, photolib_portal_log,
                void *, char *, size_t);
    int (*run)(photolib_portal *);
    int (*reply)(photolib_portal *, uint64_t, uint32_t, const char *const *, size_t);
    int (*forward)(photolib_portal *, uint64_t);
    int (*forget_documents)(photolib_portal *, const char *const *, size_t);
    void (*stop)(photolib_portal *);
    size_t (*open_calls)(photolib_portal *);
    void (*free)(photolib_portal *);
    int found;
} face;
static pthread_once_t resolved = PTHREAD_ONCE_INIT;

static void resolve(void) {
    if (!photolib_bus_ready(NULL, 0)) return;
    *(void **)&face.open = photolib_bus_symbol("photolib_portal_open");
    *(void **)&face.run = photolib_bus_symbol("photolib_portal_run");
    *(void **)&face.reply = photolib_bus_symbol("photolib_portal_reply");
    *(void **)&face.forward = photolib_bus_symbol("photolib_portal_forward");
    *(void **)&face.forget_documents = photolib_bus_symbol("photolib_portal_forget_documents");
    *(void **)&face.stop = photolib_bus_symbol("photolib_portal_stop");
    *(void **)&face.open_calls = photolib_bus_symbol("photolib_portal_open_calls");
    *(void **)&face.free = photolib_bus_symbol("photolib_portal_free");
    face.found = face.open && face.run && face.reply && face.forward && face.forget_documents && face.stop && face.open_calls && face.free;
}

// Without the library: -ELIBACC, with the loader's words in `error`. The others are called only with a
// portal photolib_portal_open made, so with the library loaded.
int photolib_portal_open(photolib_portal **out, const char *bus_name, const char *forward_to, photolib_portal_open_file on_open,
                         photolib_portal_closed on_closed, photolib_portal_log on_log, void *context, char *error, size_t error_size) {
    pthread_once(&resolved, resolve);
    if (!face.found) {
        *out = NULL;
        if (photolib_bus_ready(error, error_size) && error_size > 0)
            snprintf(error, error_size, "libphotolibd-bus.so lacks a function of the portal's (another version's; reinstall photolibd)");
        return -ELIBACC;
    }
    return face.open(out, bus_name, forward_to, on_open, on_closed, on_log, context, error, error_size);
}

int photolib_portal_run(photolib_portal *portal) { return face.run(portal); }

int photolib_portal_reply(photolib_portal *portal, uint64_t call, uint32_t response, const char *const *uris, size_t count) {
    return face.reply(portal, call, response, uris, count);
}

int photolib_portal_forward(photolib_portal *portal, uint64_t call) { return face.forward(portal, call); }

int photolib_portal_forget_documents(photolib_portal *portal, const char *const *paths, size_t count) {
    return face.forget_documents(portal, paths, count);
}

void photolib_portal_stop(photolib_portal *portal) { face.stop(portal); }

size_t photolib_portal_open_calls(photolib_portal *portal) { return face.open_calls(portal); }

void photolib_portal_free(photolib_portal *portal) { face.free(portal); }
