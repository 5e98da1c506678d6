#ifndef PHOTOLIBD_CINOTIFYTOOLS_SHIM_H
#define PHOTOLIBD_CINOTIFYTOOLS_SHIM_H
#include <sys/inotify.h>
#include <inotifytools/inotifytools.h>

// Swift does not import the flexible array member `name`; this reads it.
static inline const char *photolibd_inotify_event_name(const struct inotify_event *event) {
    return event->len > 0 ? event->name : "";
}
#endif
