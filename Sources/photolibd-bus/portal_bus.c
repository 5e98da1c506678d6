#include "portal_bus.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>

#define PORTAL_PATH "/org/freedesktop/portal/desktop"
#define FILE_CHOOSER "org.freedesktop.impl.portal.FileChooser"
#define REQUEST "org.freedesktop.impl.portal.Request"
#define DOCUMENTS "org.freedesktop.portal.Documents"
#define DOCUMENTS_PATH "/org/freedesktop/portal/documents"

// One call the frontend made and has not had its answer to.
typedef struct pending {
    uint64_t id;
    sd_bus_message *call;
    sd_bus_slot *request_object;  // the call's Request object at its handle
    sd_bus_slot *forward;         // the forwarded call, while it runs
    int forwarded;
    char *handle;
    struct pending *next;
} pending;

// Work another thread queued for the loop's thread.
typedef struct job {
    enum { JOB_REPLY, JOB_FORWARD, JOB_FORGET, JOB_STOP } kind;
    uint64_t call;
    uint32_t response;
    char **strings;
    size_t count;
    sem_t *done;  // posted when the job is over, for a caller that waits on it
    struct job *next;
} job;

struct photolib_portal {
    sd_bus *bus;
    sd_event *event;
    sd_bus_slot *object;
    sd_event_source *wake_source;
    int wake;
    char *forward_to;
    photolib_portal_open_file on_open;
    photolib_portal_closed on_closed;
    photolib_portal_log on_log;
    void *context;
    pending *calls;
    uint64_t next_id;
    pthread_mutex_t lock;  // guards jobs and open_calls
    job *jobs;
    size_t open_calls;
};

static void say(photolib_portal *portal, int level, const char *format, ...) {
    char line[1024];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(line, sizeof line, format, arguments);
    va_end(arguments);
    portal->on_log(portal->context, level, line);
}

static void count_calls(photolib_portal *portal, int delta) {
    pthread_mutex_lock(&portal->lock);
    portal->open_calls += delta;
    pthread_mutex_unlock(&portal->lock);
}

// ---- A growing JSON text, for handing a call's arguments to Swift. ----

typedef struct {
    char *text;
    size_t length, capacity;
    int failed;
} json;

static void put(json *out, const char *bytes, size_t n) {
    if (out->failed) return;
    if (out->length + n + 1 > out->capacity) {
        size_t capacity = out->capacity ? out->capacity * 2 : 512;
        while (capacity < out->length + n + 1) capacity *= 2;
        char *grown = realloc(out->text, capacity);
        if (!grown) {
            out->failed = 1;
            return;
        }
        out->text = grown;
        out->capacity = capacity;
    }
    memcpy(out->text + out->length, bytes, n);
    out->length += n;
    out->text[out->length] = 0;
}

static void put_text(json *out, const char *text) { put(out, text, strlen(text)); }

static void put_string(json *out, const char *text) {
    put_text(out, "\"");
    for (const unsigned char *c = (const unsigned char *)(text ? text : ""); *c; c++) {
        char escaped[8];
        if (*c == '"' || *c == '\\') {
            escaped[0] = '\\';
            escaped[1] = (char)*c;
            put(out, escaped, 2);
        } else if (*c < 0x20) {
            snprintf(escaped, sizeof escaped, "\\u%04x", *c);
            put_text(out, escaped);
        } else {
            put(out, (const char *)c, 1);
        }
    }
    put_text(out, "\"");
}

// One filter, (sa(us)): {"name":…,"patterns":[[kind,"pattern"],…]}.
static int read_filter(sd_bus_message *m, json *out) {
    const char *name = NULL;
    int r = sd_bus_message_enter_container(m, 'r', "sa(us)");
    if (r <= 0) return r < 0 ? r : -EBADMSG;
    if ((r = sd_bus_message_read(m, "s", &name)) < 0) return r;
    put_text(out, "{\"name\":");
    put_string(out, name);
    put_text(out, ",\"patterns\":[");
    if ((r = sd_bus_message_enter_container(m, 'a', "(us)")) < 0) return r;
    int first = 1;
    uint32_t kind;
    const char *pattern;
    while ((r = sd_bus_message_read(m, "(us)", &kind, &pattern)) > 0) {
        char number[16];
        snprintf(number, sizeof number, "%s[%u,", first ? "" : ",", kind);
        put_text(out, number);
        put_string(out, pattern);
        put_text(out, "]");
        first = 0;
    }
    if (r < 0) return r;
    if ((r = sd_bus_message_exit_container(m)) < 0) return r;
    put_text(out, "]}");
    return sd_bus_message_exit_container(m);
}

// OpenFile (o handle, s app_id, s parent_window, s title, a{sv} options), as JSON.
static int describe_open_file(sd_bus_message *m, json *out) {
    const char *handle, *app, *parent, *title;
    int r = sd_bus_message_read(m, "osss", &handle, &app, &parent, &title);
    if (r < 0) return r;
    int multiple = 0, directory = 0;
    put_text(out, "{\"handle\":");
    put_string(out, handle);
    put_text(out, ",\"app\":");
    put_string(out, app);
    put_text(out, ",\"parent\":");
    put_string(out, parent);
    put_text(out, ",\"title\":");
    put_string(out, title);
    put_text(out, ",\"filters\":[");
    json current = {0};
    if ((r = sd_bus_message_enter_container(m, 'a', "{sv}")) < 0) return r;
    while ((r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
        const char *key, *type;
        if ((r = sd_bus_message_read(m, "s", &key)) < 0) break;
        if ((r = sd_bus_message_peek_type(m, NULL, &type)) < 0) break;
        if (strcmp(key, "multiple") == 0 && strcmp(type, "b") == 0) {
            r = sd_bus_message_read(m, "v", "b", &multiple);
        } else if (strcmp(key, "directory") == 0 && strcmp(type, "b") == 0) {
            r = sd_bus_message_read(m, "v", "b", &directory);
        } else if (strcmp(key, "filters") == 0 && strcmp(type, "a(sa(us))") == 0) {
            if ((r = sd_bus_message_enter_container(m, 'v', type)) < 0) break;
            if ((r = sd_bus_message_enter_container(m, 'a', "(sa(us))")) < 0) break;
            int first = 1;
            while ((r = sd_bus_message_at_end(m, 0)) == 0) {
                if (!first) put_text(out, ",");
                if ((r = read_filter(m, out)) < 0) break;
                first = 0;
            }
            if (r < 0) break;
            if ((r = sd_bus_message_exit_container(m)) < 0) break;
            r = sd_bus_message_exit_container(m);
        } else if (strcmp(key, "current_filter") == 0 && strcmp(type, "(sa(us))") == 0) {
            if ((r = sd_bus_message_enter_container(m, 'v', type)) < 0) break;
            if ((r = read_filter(m, &current)) < 0) break;
            r = sd_bus_message_exit_container(m);
        } else {
            r = sd_bus_message_skip(m, "v");
        }
        if (r < 0) break;
        if ((r = sd_bus_message_exit_container(m)) < 0) break;
    }
    if (r >= 0) r = sd_bus_message_exit_container(m);
    put_text(out, "],\"multiple\":");
    put_text(out, multiple ? "true" : "false");
    put_text(out, ",\"directory\":");
    put_text(out, directory ? "true" : "false");
    put_text(out, ",\"current\":");
    put_text(out, current.text ? current.text : "null");
    put_text(out, "}");
    free(current.text);
    if (current.failed || out->failed) return -ENOMEM;
    return r < 0 ? r : 0;
}

// Only xdg-desktop-portal may call: it is what vouches for the app ID. An app
// with the bus itself (a sandbox that binds the bus socket rather than going
// through flatpak's filtering proxy) could otherwise ask in another app's name.
static int from_frontend(photolib_portal *portal, sd_bus_message *m) {
    const char *sender = sd_bus_message_get_sender(m);
    if (!sender) return 0;
    sd_bus_message *reply = NULL;
    sd_bus_error error = SD_BUS_ERROR_NULL;
    const char *owner = NULL;
    int r = sd_bus_call_method(portal->bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner",
                               &error, &reply, "s", "org.freedesktop.portal.Desktop");
    int same = r >= 0 && sd_bus_message_read(reply, "s", &owner) >= 0 && owner && strcmp(owner, sender) == 0;
    sd_bus_error_free(&error);
    sd_bus_message_unref(reply);
    return same;
}

static int refuse_stranger(photolib_portal *portal, sd_bus_message *m) {
    say(portal, 1, "Refused %s from %s: only xdg-desktop-portal (org.freedesktop.portal.Desktop) may call this backend.",
        sd_bus_message_get_member(m), sd_bus_message_get_sender(m) ? sd_bus_message_get_sender(m) : "an unnamed peer");
    return sd_bus_reply_method_errorf(m, SD_BUS_ERROR_ACCESS_DENIED, "only xdg-desktop-portal may call photolibd's file chooser backend");
}

// ---- Calls and their Request objects. ----

static pending *find_call(photolib_portal *portal, uint64_t id) {
    for (pending *p = portal->calls; p; p = p->next)
        if (p->id == id) return p;
    return NULL;
}

static void finish_call(photolib_portal *portal, pending *call) {
    for (pending **link = &portal->calls; *link; link = &(*link)->next) {
        if (*link == call) {
            *link = call->next;
            break;
        }
    }
    sd_bus_slot_unref(call->request_object);
    sd_bus_slot_unref(call->forward);
    sd_bus_message_unref(call->call);
    free(call->handle);
    free(call);
    count_calls(portal, -1);
}

typedef struct {
    photolib_portal *portal;
    uint64_t id;
} call_ref;

// The Request object's userdata: which portal and call (the call may be gone when Close comes).
static int on_close(sd_bus_message *m, void *userdata, sd_bus_error *ret_error) {
    (void)ret_error;
    call_ref *ref = userdata;
    photolib_portal *portal = ref->portal;
    if (!from_frontend(portal, m)) return refuse_stranger(portal, m);
    pending *call = find_call(portal, ref->id);
    if (call && call->forwarded) {
        // The other backend owns the dialog: it is told, and its answer comes back as the call's.
        int r = sd_bus_call_method_async(portal->bus, NULL, portal->forward_to, call->handle, REQUEST, "Close", NULL, NULL, "");
        if (r < 0) say(portal, 1, "Could not pass the app's Close of %s on to %s: %s", call->handle, portal->forward_to, strerror(-r));
    } else if (call) {
        portal->on_closed(portal->context, call->id);
    }
    return sd_bus_reply_method_return(m, "");
}

static const sd_bus_vtable closing_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Close", "", "", on_close, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_VTABLE_END,
};

static void free_ref(void *userdata) { free(userdata); }

static pending *track_call(photolib_portal *portal, sd_bus_message *m, const char *handle) {
    pending *call = calloc(1, sizeof *call);
    call_ref *ref = calloc(1, sizeof *ref);
    if (!call || !ref || !(call->handle = strdup(handle))) {
        free(call ? call->handle : NULL);
        free(call);
        free(ref);
        return NULL;
    }
    call->id = ++portal->next_id;
    call->call = sd_bus_message_ref(m);
    ref->portal = portal;
    ref->id = call->id;
    int r = sd_bus_add_object_vtable(portal->bus, &call->request_object, handle, REQUEST, closing_vtable, ref);
    if (r < 0) {
        say(portal, 1, "Could not serve the Request object %s (%s); the app cannot close this dialog early.", handle, strerror(-r));
        free(ref);
    } else {
        sd_bus_slot_set_destroy_callback(call->request_object, free_ref);
    }
    call->next = portal->calls;
    portal->calls = call;
    count_calls(portal, 1);
    return call;
}

// ---- Forwarding to the backend chosen before this one. ----

static int on_forward_reply(sd_bus_message *reply, void *userdata, sd_bus_error *ret_error) {
    (void)ret_error;
    call_ref *ref = userdata;
    photolib_portal *portal = ref->portal;
    pending *call = find_call(portal, ref->id);
    if (!call) return 0;
    int r;
    const sd_bus_error *error = sd_bus_message_get_error(reply);
    if (error) {
        say(portal, 1, "%s answered %s.%s with an error (%s: %s); the app is told so.", portal->forward_to, FILE_CHOOSER,
            sd_bus_message_get_member(call->call), error->name, error->message ? error->message : "");
        r = sd_bus_reply_method_error(call->call, error);
    } else {
        sd_bus_message *answer = NULL;
        r = sd_bus_message_new_method_return(call->call, &answer);
        if (r >= 0) r = sd_bus_message_rewind(reply, 1);
        if (r >= 0) r = sd_bus_message_copy(answer, reply, 1);
        if (r >= 0) r = sd_bus_send(portal->bus, answer, NULL);
        sd_bus_message_unref(answer);
    }
    if (r < 0) say(portal, 2, "Could not pass %s's answer to %s back to the portal: %s", portal->forward_to, call->handle, strerror(-r));
    finish_call(portal, call);
    return 0;
}

static int forward(photolib_portal *portal, pending *call) {
    sd_bus_message *copy = NULL;
    call_ref *ref = calloc(1, sizeof *ref);
    if (!ref) return -ENOMEM;
    ref->portal = portal;
    ref->id = call->id;
    int r = sd_bus_message_new_method_call(portal->bus, &copy, portal->forward_to, PORTAL_PATH, FILE_CHOOSER,
                                           sd_bus_message_get_member(call->call));
    if (r >= 0) r = sd_bus_message_rewind(call->call, 1);
    if (r >= 0) r = sd_bus_message_copy(copy, call->call, 1);
    // A dialog is open as long as the person takes: no timeout.
    if (r >= 0) r = sd_bus_call_async(portal->bus, &call->forward, copy, on_forward_reply, ref, UINT64_MAX);
    sd_bus_message_unref(copy);
    if (r < 0) {
        free(ref);
        return r;
    }
    sd_bus_slot_set_destroy_callback(call->forward, free_ref);
    call->forwarded = 1;
    return 0;
}

static int reply_failure(photolib_portal *portal, pending *call, const char *why, int r) {
    say(portal, 2, "Could not handle %s for %s: %s (%s).", sd_bus_message_get_member(call->call), call->handle, why, strerror(-r));
    sd_bus_error error = SD_BUS_ERROR_NULL;
    sd_bus_error_setf(&error, SD_BUS_ERROR_FAILED, "photolibd's file chooser could not %s: %s", why, strerror(-r));
    sd_bus_reply_method_error(call->call, &error);
    sd_bus_error_free(&error);
    finish_call(portal, call);
    return 1;
}

// ---- The FileChooser methods. ----

// What every method does first: only the frontend is heard, and the call is tracked
// with its Request object. NULL when it was answered already (a refusal) or failed, with *r set.
static pending *take_call(photolib_portal *portal, sd_bus_message *m, int *r) {
    if (!from_frontend(portal, m)) {
        *r = refuse_stranger(portal, m);
        return NULL;
    }
    const char *handle;
    if ((*r = sd_bus_message_read(m, "o", &handle)) < 0) return NULL;
    pending *call = track_call(portal, m, handle);
    if (!call) *r = -ENOMEM;
    return call;
}

static int on_open_file(sd_bus_message *m, void *userdata, sd_bus_error *ret_error) {
    (void)ret_error;
    photolib_portal *portal = userdata;
    int r;
    pending *call = take_call(portal, m, &r);
    if (!call) return r;
    json arguments = {0};
    if ((r = sd_bus_message_rewind(m, 1)) >= 0) r = describe_open_file(m, &arguments);
    if (r < 0) {
        free(arguments.text);
        return reply_failure(portal, call, "read the call's arguments", r);
    }
    int handled = portal->on_open(portal->context, call->id, arguments.text);
    free(arguments.text);
    if (handled) return 1;  // answered later, with photolib_portal_reply
    if ((r = forward(portal, call)) < 0) return reply_failure(portal, call, "pass the call on to the other backend", r);
    return 1;
}

static int on_forwarded_method(sd_bus_message *m, void *userdata, sd_bus_error *ret_error) {
    (void)ret_error;
    photolib_portal *portal = userdata;
    int r;
    pending *call = take_call(portal, m, &r);
    if (!call) return r;
    say(portal, 0, "%s for %s goes to %s unchanged.", sd_bus_message_get_member(m), call->handle, portal->forward_to);
    if ((r = forward(portal, call)) < 0) return reply_failure(portal, call, "pass the call on to the other backend", r);
    return 1;
}

static int get_version(sd_bus *bus, const char *path, const char *interface, const char *property, sd_bus_message *reply,
                       void *userdata, sd_bus_error *ret_error) {
    (void)bus, (void)path, (void)interface, (void)property, (void)userdata, (void)ret_error;
    return sd_bus_message_append(reply, "u", (uint32_t)4);
}

static const sd_bus_vtable file_chooser_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_PROPERTY("version", "u", get_version, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_METHOD("OpenFile", "osssa{sv}", "ua{sv}", on_open_file, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("SaveFile", "osssa{sv}", "ua{sv}", on_forwarded_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("SaveFiles", "osssa{sv}", "ua{sv}", on_forwarded_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_VTABLE_END,
};

// ---- Work queued by other threads. ----

static void free_job(job *work) {
    if (work->done) sem_post(work->done);
    for (size_t i = 0; i < work->count; i++) free(work->strings[i]);
    free(work->strings);
    free(work);
}

static void send_reply(photolib_portal *portal, job *work) {
    pending *call = find_call(portal, work->call);
    if (!call) return;  // answered already
    sd_bus_message *answer = NULL;
    int r = sd_bus_message_new_method_return(call->call, &answer);
    if (r >= 0) r = sd_bus_message_append(answer, "u", work->response);
    if (r >= 0) r = sd_bus_message_open_container(answer, 'a', "{sv}");
    if (r >= 0) r = sd_bus_message_open_container(answer, 'e', "sv");
    if (r >= 0) r = sd_bus_message_append(answer, "s", "uris");
    if (r >= 0) r = sd_bus_message_open_container(answer, 'v', "as");
    if (r >= 0) r = sd_bus_message_append_strv(answer, work->strings ? work->strings : (char *[]){NULL});
    if (r >= 0) r = sd_bus_message_close_container(answer);
    if (r >= 0) r = sd_bus_message_close_container(answer);
    // The copies are read-only: the app is never offered to write them.
    if (r >= 0) r = sd_bus_message_append(answer, "{sv}", "writable", "b", 0);
    if (r >= 0) r = sd_bus_message_close_container(answer);
    if (r >= 0) r = sd_bus_send(portal->bus, answer, NULL);
    sd_bus_message_unref(answer);
    if (r < 0) say(portal, 2, "Could not send the answer to %s: %s", call->handle, strerror(-r));
    finish_call(portal, call);
}

static void forward_later(photolib_portal *portal, uint64_t id) {
    pending *call = find_call(portal, id);
    if (!call || call->forwarded) return;
    int r = forward(portal, call);
    if (r < 0) reply_failure(portal, call, "pass the call on to the other backend", r);
}

// Synchronous on purpose: the caller removes the files once this returns, and the
// Documents portal finds an export only by the path of a file that still exists.
static void forget_documents(photolib_portal *portal, job *work) {
    for (size_t i = 0; i < work->count; i++) {
        sd_bus_message *lookup = NULL, *reply = NULL;
        sd_bus_error error = SD_BUS_ERROR_NULL;
        const char *found = NULL;
        char *id = NULL;
        // Lookup takes the path as bytes with its terminating NUL (GVariant's bytestring).
        int r = sd_bus_message_new_method_call(portal->bus, &lookup, DOCUMENTS, DOCUMENTS_PATH, DOCUMENTS, "Lookup");
        if (r >= 0) r = sd_bus_message_append_array(lookup, 'y', work->strings[i], strlen(work->strings[i]) + 1);
        if (r >= 0) r = sd_bus_call(portal->bus, lookup, 5 * 1000000ULL, &error, &reply);
        if (r >= 0) r = sd_bus_message_read(reply, "s", &found);
        // Copied: `found` points into the reply, which is let go before the next call.
        if (r >= 0 && found && *found && !(id = strdup(found))) r = -ENOMEM;
        if (r >= 0 && id) {
            sd_bus_message_unref(reply);
            reply = NULL;
            r = sd_bus_call_method(portal->bus, DOCUMENTS, DOCUMENTS_PATH, DOCUMENTS, "Delete", &error, &reply, "s", id);
            if (r >= 0) say(portal, 0, "The Documents portal no longer exports %s (document %s).", work->strings[i], id);
        }
        // No Documents portal running means nothing was exported through it.
        if (r < 0 && !sd_bus_error_has_name(&error, SD_BUS_ERROR_SERVICE_UNKNOWN))
            say(portal, 1, "Could not remove the Documents portal's export of %s: %s", work->strings[i],
                sd_bus_error_is_set(&error) ? error.message : strerror(-r));
        free(id);
        sd_bus_error_free(&error);
        sd_bus_message_unref(reply);
        sd_bus_message_unref(lookup);
    }
}

static int on_wake(sd_event_source *source, int fd, uint32_t revents, void *userdata) {
    (void)source, (void)revents;
    photolib_portal *portal = userdata;
    uint64_t ignored;
    if (read(fd, &ignored, sizeof ignored) < 0 && errno != EAGAIN) return -errno;
    pthread_mutex_lock(&portal->lock);
    job *work = portal->jobs;
    portal->jobs = NULL;
    pthread_mutex_unlock(&portal->lock);
    // Oldest first: the queue was built newest first.
    job *ordered = NULL;
    while (work) {
        job *next = work->next;
        work->next = ordered;
        ordered = work;
        work = next;
    }
    int stop = 0;
    while (ordered) {
        job *next = ordered->next;
        if (ordered->kind == JOB_REPLY) send_reply(portal, ordered);
        else if (ordered->kind == JOB_FORWARD) forward_later(portal, ordered->call);
        else if (ordered->kind == JOB_FORGET) forget_documents(portal, ordered);
        else stop = 1;
        free_job(ordered);
        ordered = next;
    }
    if (stop) sd_event_exit(portal->event, 0);
    return 0;
}

static int queue_job(photolib_portal *portal, job *work) {
    pthread_mutex_lock(&portal->lock);
    work->next = portal->jobs;
    portal->jobs = work;
    pthread_mutex_unlock(&portal->lock);
    uint64_t one = 1;
    while (write(portal->wake, &one, sizeof one) < 0) {
        if (errno == EINTR) continue;
        if (errno == EAGAIN) break;  // the counter is full: the loop is awake anyway
        return -errno;
    }
    return 0;
}

static job *new_job(int kind, const char *const *strings, size_t count) {
    job *work = calloc(1, sizeof *work);
    if (!work) return NULL;
    work->kind = kind;
    if (count > 0) {
        work->strings = calloc(count + 1, sizeof *work->strings);
        if (!work->strings) {
            free(work);
            return NULL;
        }
        for (size_t i = 0; i < count; i++) {
            if (!(work->strings[i] = strdup(strings[i]))) {
                work->count = i;
                free_job(work);
                return NULL;
            }
        }
        work->count = count;
    }
    return work;
}

int photolib_portal_reply(photolib_portal *portal, uint64_t call, uint32_t response, const char *const *uris, size_t count) {
    job *work = new_job(JOB_REPLY, uris, count);
    if (!work) return -ENOMEM;
    work->call = call;
    work->response = response;
    return queue_job(portal, work);
}

int photolib_portal_forward(photolib_portal *portal, uint64_t call) {
    job *work = new_job(JOB_FORWARD, NULL, 0);
    if (!work) return -ENOMEM;
    work->call = call;
    return queue_job(portal, work);
}

int photolib_portal_forget_documents(photolib_portal *portal, const char *const *paths, size_t count) {
    sem_t done;
    if (sem_init(&done, 0, 0) < 0) return -errno;
    job *work = new_job(JOB_FORGET, paths, count);
    if (!work) {
        sem_destroy(&done);
        return -ENOMEM;
    }
    work->done = &done;
    int r = queue_job(portal, work);
    // Queued work is always freed, run or not, which posts `done`.
    while (sem_wait(&done) < 0 && errno == EINTR) {}
    sem_destroy(&done);
    return r;
}

void photolib_portal_stop(photolib_portal *portal) {
    job *work = new_job(JOB_STOP, NULL, 0);
    if (work) queue_job(portal, work);
}

size_t photolib_portal_open_calls(photolib_portal *portal) {
    pthread_mutex_lock(&portal->lock);
    size_t count = portal->open_calls;
    pthread_mutex_unlock(&portal->lock);
    return count;
}

// ---- Life. ----

int photolib_portal_open(photolib_portal **out, const char *bus_name, const char *forward_to,
                         photolib_portal_open_file on_open, photolib_portal_closed on_closed, photolib_portal_log on_log,
                         void *context, char *error, size_t error_size) {
    photolib_portal *portal = calloc(1, sizeof *portal);
    if (!portal) return -ENOMEM;
    pthread_mutex_init(&portal->lock, NULL);
    portal->wake = -1;
    portal->on_open = on_open;
    portal->on_closed = on_closed;
    portal->on_log = on_log;
    portal->context = context;
    const char *step = "remember the backend to forward to";
    int r = (portal->forward_to = strdup(forward_to)) ? 0 : -ENOMEM;
    if (r >= 0) {
        step = "connect to the session bus (is DBUS_SESSION_BUS_ADDRESS set?)";
        r = sd_bus_open_user(&portal->bus);
    }
    if (r >= 0) {
        step = "make an event loop";
        r = sd_event_new(&portal->event);
    }
    if (r >= 0) r = sd_bus_attach_event(portal->bus, portal->event, SD_EVENT_PRIORITY_NORMAL);
    if (r >= 0) r = sd_bus_set_exit_on_disconnect(portal->bus, 1);
    if (r >= 0) {
        step = "make an eventfd";
        portal->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
        r = portal->wake < 0 ? -errno : 0;
    }
    if (r >= 0) r = sd_event_add_io(portal->event, &portal->wake_source, portal->wake, EPOLLIN, on_wake, portal);
    if (r >= 0) {
        step = "serve " FILE_CHOOSER " at " PORTAL_PATH;
        r = sd_bus_add_object_vtable(portal->bus, &portal->object, PORTAL_PATH, FILE_CHOOSER, file_chooser_vtable, portal);
    }
    if (r >= 0) {
        step = "take the bus name (is another photolibd-portal running?)";
        r = sd_bus_request_name(portal->bus, bus_name, 0);
    }
    if (r < 0) {
        if (error && error_size) snprintf(error, error_size, "cannot %s: %s", step, strerror(-r));
        photolib_portal_free(portal);
        return r;
    }
    *out = portal;
    return 0;
}

int photolib_portal_run(photolib_portal *portal) {
    int r = sd_event_loop(portal->event);
    return r < 0 ? r : 0;
}

void photolib_portal_free(photolib_portal *portal) {
    if (!portal) return;
    while (portal->calls) finish_call(portal, portal->calls);
    while (portal->jobs) {
        job *next = portal->jobs->next;
        free_job(portal->jobs);
        portal->jobs = next;
    }
    sd_bus_slot_unref(portal->object);
    sd_event_source_unref(portal->wake_source);
    if (portal->bus) sd_bus_flush_close_unref(portal->bus);
    sd_event_unref(portal->event);
    if (portal->wake >= 0) close(portal->wake);
    free(portal->forward_to);
    pthread_mutex_destroy(&portal->lock);
    free(portal);
}
