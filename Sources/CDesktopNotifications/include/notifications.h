#ifndef PHOTOLIB_NOTIFICATIONS_H
#define PHOTOLIB_NOTIFICATIONS_H
// Desktop notifications (org.freedesktop.Notifications) with an action, through sd-bus:
// send one, then wait for the person to click it or dismiss it.
#include <stddef.h>
#include <stdint.h>

typedef struct photolib_notifier photolib_notifier;

/// Connects to the person's session bus (DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus).
/// Returns 0 with the connection in *out, or a negative errno.
int photolib_notifier_open(photolib_notifier **out);

/// 1 when the notification service offers actions (GetCapabilities lists "actions"), 0 when not,
/// or a negative errno with a sentence in `error`.
int photolib_notifier_has_actions(photolib_notifier *notifier, char *error, size_t error_size);

/// Shows a notification from `app_name` with the icon `icon`; with `action_key`, offers that action
/// labelled `action_label` (as the default action too: a click on the notification).
/// Returns 0 with its id in *id, or a negative errno with a sentence in `error`.
int photolib_notifier_send(photolib_notifier *notifier, const char *app_name, const char *icon, const char *summary,
                           const char *body, const char *action_key, const char *action_label, uint32_t *id,
                           char *error, size_t error_size);

/// Waits at most `timeout_usec` for notification `id` to be acted on or closed.
/// Returns 1 with the action's key in `action` when the person chose one, 0 when it was closed
/// or the time ran out, or a negative errno (the bus went away).
int photolib_notifier_wait(photolib_notifier *notifier, uint32_t id, uint64_t timeout_usec, char *action, size_t action_size);

void photolib_notifier_close(photolib_notifier *notifier);

#endif
