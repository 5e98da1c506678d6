#ifndef PHOTOLIB_BUS_LIBRARY_H
#define PHOTOLIB_BUS_LIBRARY_H
// libphotolibd-bus.so: photolibd's own calls to the session bus and to systemd's manager, through
// sd-bus (libsystemd), in a library of its own (Sources/photolibd-bus, built by
// scripts/build-c-helpers), loaded with dlopen by the first call: the daemon talks to the bus only to
// notify the person of a request or to hand an app's socket units over, and linked, libsystemd and the
// libraries under it (libgcrypt, liblzma, liblz4, libcap) were mapped at every start (1.2 MB of its
// memory). Found by the executable's run path, as the Swift runtime beside it is.
//
// CDesktopNotifications, CSystemdUnits and CPortalBus keep their C faces; their functions hand each
// call to the library through `photolib_bus_symbol`.

#include <stddef.h>

/// Loads the library once (later calls return the first outcome): 1 when it is there, 0 with the
/// dynamic loader's words in `error`.
int photolib_bus_ready(char *error, size_t error_size);

/// The library's function `name`, once `photolib_bus_ready` said 1; NULL otherwise, or when it lacks it.
void *photolib_bus_symbol(const char *name);

#endif
