#ifndef PHOTOLIB_SYSTEMD_UNITS_H
#define PHOTOLIB_SYSTEMD_UNITS_H
// Unit calls to a systemd manager over its private socket, through sd-bus
// (as `systemctl --user` talks to $XDG_RUNTIME_DIR/systemd/private): a peer
// connection, no bus daemon.
#include <stddef.h>

/// Enables `units` (EnableUnitFiles, runtime=false, force=true) and starts each (StartUnit "replace"),
/// waiting at most `timeout_usec` for each answer. Returns how many calls failed (the first's message
/// in `failure`), or a negative errno with a sentence in `failure` when the manager cannot be reached.
int photolib_units_hand_over(const char *socket_path, const char *const *units, size_t count, unsigned long long timeout_usec,
                             char *failure, size_t failure_size);

/// Stops each of `units` (StopUnit "replace") and disables them (DisableUnitFiles, runtime=false).
/// Returns as photolib_units_hand_over does.
int photolib_units_retire(const char *socket_path, const char *const *units, size_t count, unsigned long long timeout_usec,
                          char *failure, size_t failure_size);
#endif
