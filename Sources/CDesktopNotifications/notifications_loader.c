// notifications.h's functions, each handing its call to libphotolibd-bus.so (see bus_library.h).
#include "notifications.h"
#include "bus_library.h"

#include <errno.h>
#include <pthread.h>

static struct {
    int (*open)(photolib_notifier **);
    int (*has_actions)(photolib_notifier *, char *, size_t);
    int (*send)(photolib_notifier *, const char *, const char *, const char *, const char *, const char *, const char *, uint32_t *,
                char *, size_t);
    int (*wait)(photolib_notifier *, uint32_t, uint64_t, char *, size_t);
    void (*close)(photolib_notifier *);
    int found;
} face;
static pthread_once_t resolved = PTHREAD_ONCE_INIT;

static void resolve(void) {
    if (!photolib_bus_ready(NULL, 0)) return;
    *(void **)&face.open = photolib_bus_symbol("photolib_notifier_open");
    *(void **)&face.has_actions = photolib_bus_symbol("photolib_notifier_has_actions");
    *(void **)&face.send = photolib_bus_symbol("photolib_notifier_send");
    *(void **)&face.wait = photolib_bus_symbol("photolib_notifier_wait");
    *(void **)&face.close = photolib_bus_symbol("photolib_notifier_close");
    face.found = face.open && face.has_actions && face.send && face.wait && face.close;
}

// Without the library: -ELIBACC, and photolib_bus_ready says why. The others are called only with a
// notifier photolib_notifier_open made, so with the library loaded.
int photolib_notifier_open(photolib_notifier **out) {
    pthread_once(&resolved, resolve);
    if (!face.found) {
        *out = NULL;
        return -ELIBACC;
    }
    return face.open(out);
}

int photolib_notifier_has_actions(photolib_notifier *notifier, char *error, size_t error_size) {
    return face.has_actions(notifier, error, error_size);
}

int photolib_notifier_send(photolib_notifier *notifier, const char *app_name, const char *icon, const char *summary, const char *body,
                           const char *action_key, const char *action_label, uint32_t *id, char *error, size_t error_size) {
    return face.send(notifier, app_name, icon, summary, body, action_key, action_label, id, error, error_size);
}

int photolib_notifier_wait(photolib_notifier *notifier, uint32_t id, uint64_t timeout_usec, char *action, size_t action_size) {
    return face.wait(notifier, id, timeout_usec, action, action_size);
}

void photolib_notifier_close(photolib_notifier *notifier) { face.close(notifier); }
