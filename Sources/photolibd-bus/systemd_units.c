#include "systemd_units.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>

#define SYSTEMD "org.freedesktop.systemd1"
#define MANAGER_PATH "/org/freedesktop/systemd1"
#define MANAGER "org.freedesktop.systemd1.Manager"

// A D-Bus address names a socket path with every byte outside a safe set %-escaped.
static char *address_of(const char *socket_path) {
    size_t length = strlen(socket_path);
    char *address = malloc(strlen("unix:path=") + 3 * length + 1);
    if (!address) return NULL;
    char *out = address + sprintf(address, "unix:path=");
    for (const unsigned char *c = (const unsigned char *)socket_path; *c; c++) {
        if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || strchr("/_.-", *c))
            *out++ = (char)*c;
        else
            out += sprintf(out, "%%%02x", *c);
    }
    *out = 0;
    return address;
}

static int connect_manager(const char *socket_path, sd_bus **out, char *failure, size_t failure_size) {
    char *address = address_of(socket_path);
    if (!address) return -ENOMEM;
    sd_bus *bus = NULL;
    int r = sd_bus_new(&bus);
    if (r >= 0) r = sd_bus_set_address(bus, address);
    if (r >= 0) r = sd_bus_start(bus);
    free(address);
    if (r < 0) {
        snprintf(failure, failure_size, "cannot connect to the systemd manager at %s: %s", socket_path, strerror(-r));
        sd_bus_unref(bus);
        return r;
    }
    *out = bus;
    return 0;
}

// Records a failed call; only the first one's words are kept.
static void note(int *failed, const char *call, const sd_bus_error *error, int r, char *failure, size_t failure_size) {
    if ((*failed)++ == 0)
        snprintf(failure, failure_size, "%s: %s", call, sd_bus_error_is_set(error) ? error->message : strerror(-r));
}

// Makes a built call and lets go of it; only a lost connection stops the calls that follow.
static int call_manager(sd_bus *bus, sd_bus_message *call, int r, const char *method, unsigned long long timeout_usec, int *failed,
                        char *failure, size_t failure_size) {
    sd_bus_message *reply = NULL;
    sd_bus_error error = SD_BUS_ERROR_NULL;
    if (r >= 0) r = sd_bus_call(bus, call, timeout_usec, &error, &reply);
    if (r < 0) note(failed, method, &error, r, failure, failure_size);
    sd_bus_error_free(&error);
    sd_bus_message_unref(reply);
    sd_bus_message_unref(call);
    return r == -ECONNRESET || r == -ENOTCONN ? r : 0;
}

static int unit_files(sd_bus *bus, const char *method, const char *const *units, size_t count, int enable, unsigned long long timeout_usec,
                      int *failed, char *failure, size_t failure_size) {
    sd_bus_message *call = NULL;
    int r = sd_bus_message_new_method_call(bus, &call, SYSTEMD, MANAGER_PATH, MANAGER, method);
    if (r >= 0) r = sd_bus_message_open_container(call, 'a', "s");
    for (size_t i = 0; r >= 0 && i < count; i++) r = sd_bus_message_append(call, "s", units[i]);
    if (r >= 0) r = sd_bus_message_close_container(call);
    if (r >= 0) r = enable ? sd_bus_message_append(call, "bb", 0, 1) : sd_bus_message_append(call, "b", 0);
    return call_manager(bus, call, r, method, timeout_usec, failed, failure, failure_size);
}

static int unit_job(sd_bus *bus, const char *method, const char *unit, unsigned long long timeout_usec, int *failed, char *failure,
                    size_t failure_size) {
    sd_bus_message *call = NULL;
    int r = sd_bus_message_new_method_call(bus, &call, SYSTEMD, MANAGER_PATH, MANAGER, method);
    if (r >= 0) r = sd_bus_message_append(call, "ss", unit, "replace");
    return call_manager(bus, call, r, method, timeout_usec, failed, failure, failure_size);
}

int photolib_units_hand_over(const char *socket_path, const char *const *units, size_t count, unsigned long long timeout_usec,
                             char *failure, size_t failure_size) {
    sd_bus *bus = NULL;
    int r = connect_manager(socket_path, &bus, failure, failure_size);
    if (r < 0) return r;
    int failed = 0;
    r = unit_files(bus, "EnableUnitFiles", units, count, 1, timeout_usec, &failed, failure, failure_size);
    for (size_t i = 0; r >= 0 && i < count; i++) r = unit_job(bus, "StartUnit", units[i], timeout_usec, &failed, failure, failure_size);
    sd_bus_flush_close_unref(bus);
    return r < 0 ? r : failed;
}

int photolib_units_retire(const char *socket_path, const char *const *units, size_t count, unsigned long long timeout_usec,
                          char *failure, size_t failure_size) {
    sd_bus *bus = NULL;
    int r = connect_manager(socket_path, &bus, failure, failure_size);
    if (r < 0) return r;
    int failed = 0;
    for (size_t i = 0; r >= 0 && i < count; i++) r = unit_job(bus, "StopUnit", units[i], timeout_usec, &failed, failure, failure_size);
    if (r >= 0) r = unit_files(bus, "DisableUnitFiles", units, count, 0, timeout_usec, &failed, failure, failure_size);
    sd_bus_flush_close_unref(bus);
    return r < 0 ? r : failed;
}
