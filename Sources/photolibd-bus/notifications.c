#include "notifications.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <systemd/sd-bus.h>

#define SERVICE "org.freedesktop.Notifications"
#define PATH "/org/freedesktop/Notifications"

struct photolib_notifier {
    sd_bus *bus;
    sd_bus_slot *match;
    uint32_t watched;
    int outcome;       // 0: nothing yet; 1: action; 2: closed
    char action[128];
};

static void say(char *error, size_t error_size, const char *what, const sd_bus_error *bus_error, int r) {
    if (!error || error_size == 0) return;
    if (bus_error && sd_bus_error_is_set(bus_error))
        snprintf(error, error_size, "%s: %s", what, bus_error->message ? bus_error->message : bus_error->name);
    else
        snprintf(error, error_size, "%s: %s", what, strerror(-r));
}

// Both signals start with the notification's id: ActionInvoked (u s), NotificationClosed (u u).
static int on_signal(sd_bus_message *message, void *userdata, sd_bus_error *ret_error) {
    (void)ret_error;
    photolib_notifier *notifier = userdata;
    uint32_t id = 0;
    if (sd_bus_message_is_signal(message, SERVICE, "ActionInvoked")) {
        const char *key = NULL;
        if (sd_bus_message_read(message, "us", &id, &key) < 0 || id != notifier->watched) return 0;
        notifier->outcome = 1;
        snprintf(notifier->action, sizeof notifier->action, "%s", key ? key : "");
    } else if (sd_bus_message_is_signal(message, SERVICE, "NotificationClosed")) {
        if (sd_bus_message_read(message, "u", &id) < 0 || id != notifier->watched) return 0;
        if (notifier->outcome == 0) notifier->outcome = 2;
    }
    return 0;
}

int photolib_notifier_open(photolib_notifier **out) {
    photolib_notifier *notifier = calloc(1, sizeof *notifier);
    if (!notifier) return -ENOMEM;
    int r = sd_bus_open_user(&notifier->bus);
    if (r < 0) {
        free(notifier);
        return r;
    }
    // Subscribed before anything is sent: a click that comes at once is not missed.
    r = sd_bus_match_signal(notifier->bus, &notifier->match, NULL, PATH, SERVICE, NULL, on_signal, notifier);
    if (r < 0) {
        photolib_notifier_close(notifier);
        return r;
    }
    *out = notifier;
    return 0;
}

int photolib_notifier_has_actions(photolib_notifier *notifier, char *error, size_t error_size) {
    sd_bus_error bus_error = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    int r = sd_bus_call_method(notifier->bus, SERVICE, PATH, SERVICE, "GetCapabilities", &bus_error, &reply, "");
    if (r < 0) {
        say(error, error_size, "GetCapabilities failed", &bus_error, r);
        sd_bus_error_free(&bus_error);
        return r;
    }
    char **capabilities = NULL;
    r = sd_bus_message_read_strv(reply, &capabilities);
    sd_bus_message_unref(reply);
    if (r < 0) {
        say(error, error_size, "GetCapabilities answered in a form not understood", NULL, r);
        return r;
    }
    int found = 0;
    for (char **c = capabilities; c && *c; c++) {
        if (strcmp(*c, "actions") == 0) found = 1;
        free(*c);
    }
    free(capabilities);
    return found;
}

int photolib_notifier_send(photolib_notifier *notifier, const char *app_name, const char *icon, const char *summary,
                           const char *body, const char *action_key, const char *action_label, uint32_t *id,
                           char *error, size_t error_size) {
    sd_bus_error bus_error = SD_BUS_ERROR_NULL;
    sd_bus_message *call = NULL, *reply = NULL;
    int r = sd_bus_message_new_method_call(notifier->bus, &call, SERVICE, PATH, SERVICE, "Notify");
    if (r >= 0) r = sd_bus_message_append(call, "susss", app_name, (uint32_t)0, icon, summary, body);
    if (r >= 0) {
        if (action_key)
            r = sd_bus_message_append(call, "as", 4, "default", action_label, action_key, action_label);
        else
            r = sd_bus_message_append(call, "as", 0);
    }
    if (r >= 0) r = sd_bus_message_append(call, "a{sv}", 0);
    if (r >= 0) r = sd_bus_message_append(call, "i", (int32_t)-1);
    if (r < 0) {
        say(error, error_size, "cannot build the notification", NULL, r);
        sd_bus_message_unref(call);
        return r;
    }
    r = sd_bus_call(notifier->bus, call, 0, &bus_error, &reply);
    sd_bus_message_unref(call);
    if (r < 0) {
        say(error, error_size, "Notify failed", &bus_error, r);
        sd_bus_error_free(&bus_error);
        return r;
    }
    r = sd_bus_message_read(reply, "u", id);
    sd_bus_message_unref(reply);
    if (r < 0) {
        say(error, error_size, "Notify answered in a form not understood", NULL, r);
        return r;
    }
    notifier->watched = *id;
    return 0;
}

static uint64_t now_usec(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000u + (uint64_t)t.tv_nsec / 1000u;
}

int photolib_notifier_wait(photolib_notifier *notifier, uint32_t id, uint64_t timeout_usec, char *action, size_t action_size) {
    notifier->watched = id;
    uint64_t deadline = now_usec() + timeout_usec;
    while (notifier->outcome == 0) {
        int r = sd_bus_process(notifier->bus, NULL);
        if (r < 0) return r;
        if (r > 0) continue;  // more may be queued: process before waiting
        uint64_t now = now_usec();
        if (now >= deadline) return 0;
        r = sd_bus_wait(notifier->bus, deadline - now);
        if (r < 0 && r != -EINTR) return r;
    }
    if (notifier->outcome != 1) return 0;
    snprintf(action, action_size, "%s", notifier->action);
    return 1;
}

void photolib_notifier_close(photolib_notifier *notifier) {
    if (!notifier) return;
    sd_bus_slot_unref(notifier->match);
    sd_bus_flush_close_unref(notifier->bus);
    free(notifier);
}
