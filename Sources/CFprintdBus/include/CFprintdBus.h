#ifndef C_FPRINTD_BUS_H
#define C_FPRINTD_BUS_H
#include <stdint.h>

/// A method reply: `token` names the call; `error_name` is NULL on success; a string result (an object
/// path) or a string-array result (`strings`, `count`) depending on the call.
typedef void (*lfb_reply_fn)(void *context, uint64_t token, const char *error_name, const char *error_message,
                             const char *string_result, const char *const *strings, int count);
/// A signal: `VerifyStatus` (result, done) or `NameOwnerChanged` of fprintd (result = new owner, done = -1).
typedef void (*lfb_signal_fn)(void *context, const char *member, const char *result, int done);

typedef struct lfb_bus lfb_bus;

/// Opens the bus at `address`, or the system bus when it is NULL (DBUS_SYSTEM_BUS_ADDRESS is
/// honoured), and subscribes to fprintd's signals; returns 0 or -errno.
int lfb_open(const char *address, lfb_reply_fn on_reply, lfb_signal_fn on_signal, void *context, lfb_bus **out);
/// The bus descriptor, for the daemon's event loop.
int lfb_fd(lfb_bus *bus);
/// The poll events sd-bus wants now (POLLIN / POLLOUT bits).
int lfb_events(lfb_bus *bus);
/// Processes everything pending (replies and signals call back); returns 0 or -errno.
int lfb_process(lfb_bus *bus);
/// Sends an asynchronous call to fprintd: at most one string argument; the reply kind is 0 (none),
/// 1 (object path) or 2 (string array). Returns 0 or -errno.
int lfb_call(lfb_bus *bus, uint64_t token, const char *path, const char *interface, const char *member,
             const char *argument, int reply_kind);
/// Flushes and frees the connection.
void lfb_close(lfb_bus *bus);

#endif
