#pragma once

#include <stdint.h>
#include <systemd/sd-bus.h>

/* org.freedesktop.Notifications over the session bus (the Desktop Notifications Specification,
 * version 1.2), for DesktopNotifications. Each call blocks for at most `timeout_usec`. */

/* Opens the session bus at `address` (a D-Bus address, as a test's private bus gives), or the
 * user's session bus when `address` is NULL (DBUS_SESSION_BUS_ADDRESS, else
 * $XDG_RUNTIME_DIR/bus). Returns 0 or a negative errno. */
int ldn_session_bus_open(const char *address, sd_bus **out);

/* Notify(app_name, replaces_id 0, app_icon "", summary, body, no actions, hints
 * {urgency: byte, transient: true}, expire_timeout -1). Stores the server's notification id in
 * `id`. Returns 0 or a negative errno (-ENOTCONN and the like, or the call's error). */
int ldn_notify(sd_bus *bus, const char *app_name, const char *summary, const char *body, uint8_t urgency,
               uint64_t timeout_usec, uint32_t *id);

/* CloseNotification(id). Returns 0 or a negative errno. */
int ldn_close(sd_bus *bus, uint32_t id, uint64_t timeout_usec);

/* Flushes and closes the bus (sd_bus_flush_close_unref). */
void ldn_bus_close(sd_bus *bus);
