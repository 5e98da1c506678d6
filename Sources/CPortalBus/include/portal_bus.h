#ifndef PHOTOLIB_PORTAL_BUS_H
#define PHOTOLIB_PORTAL_BUS_H
// The file-chooser portal backend's side of the session bus, through sd-bus:
// org.freedesktop.impl.portal.FileChooser served under a name of its own,
// each call's org.freedesktop.impl.portal.Request object, and the calls it
// does not answer itself forwarded unchanged to another backend.
//
// Every sd-bus object lives on the thread that runs photolib_portal_run; the
// functions marked "any thread" only queue work for it (sd-bus is not
// thread-safe), so the Swift side may answer from its own threads.
#include <stddef.h>
#include <stdint.h>

typedef struct photolib_portal photolib_portal;

/// An OpenFile call to decide on: its arguments as one JSON object
/// {"handle","app","parent","title","multiple","directory","filters":[{"name","patterns":[[kind,pattern]…]}…],"current":{…}|null}.
/// Returns 1 when the Swift side takes it (to answer with photolib_portal_reply, or pass on with
/// photolib_portal_forward, later), 0 to forward it now.
typedef int (*photolib_portal_open_file)(void *context, uint64_t call, const char *json);
/// The frontend closed a call the Swift side answers (the app gave up): it must still be replied to.
typedef void (*photolib_portal_closed)(void *context, uint64_t call);
/// A line for the log: level 0 notice, 1 warning, 2 error.
typedef void (*photolib_portal_log)(void *context, int level, const char *message);

/// Connects to the session bus, serves the interface at /org/freedesktop/portal/desktop and takes `bus_name`.
/// Calls it does not answer go to `forward_to` (a bus name). Returns 0, or a negative errno with a sentence in `error`.
int photolib_portal_open(photolib_portal **out, const char *bus_name, const char *forward_to,
                         photolib_portal_open_file on_open, photolib_portal_closed on_closed, photolib_portal_log on_log,
                         void *context, char *error, size_t error_size);

/// Serves until photolib_portal_stop or until the bus goes away. Returns 0, or a negative errno.
int photolib_portal_run(photolib_portal *portal);

/// Answers an OpenFile the Swift side took: `response` (0 chosen, 1 cancelled, 2 ended otherwise) and the files' URIs.
/// Any thread. Returns 0, or a negative errno when it cannot be queued.
int photolib_portal_reply(photolib_portal *portal, uint64_t call, uint32_t response, const char *const *uris, size_t count);

/// Passes an OpenFile the Swift side took on to the other backend after all, unchanged. Any thread.
int photolib_portal_forward(photolib_portal *portal, uint64_t call);

/// Removes the Documents portal's entries for these host paths (their lasting exports), where there are any,
/// and returns when that is done. Any thread but the one in photolib_portal_run.
int photolib_portal_forget_documents(photolib_portal *portal, const char *const *paths, size_t count);

/// Makes photolib_portal_run return. Any thread.
void photolib_portal_stop(photolib_portal *portal);

/// Calls the portal still has open: OpenFile calls not yet answered and forwarded calls not yet returned. Any thread.
size_t photolib_portal_open_calls(photolib_portal *portal);

void photolib_portal_free(photolib_portal *portal);
#endif
