#ifndef C_LOGIND_BUS_H
#define C_LOGIND_BUS_H
#include <stdint.h>

/// What logind said: the watch is subscribed (uid -1), a session of `uid` locked, the machine
/// prepares to sleep (uid -1: every uid), a session of `uid` ended (-1 when its uid was never
/// learnt), and after it, when no other session of that uid is known, its last session ended.
enum llb_event { LLB_READY = 0, LLB_LOCK = 1, LLB_SLEEP = 2, LLB_LOGOUT = 3, LLB_LAST_LOGOUT = 4 };

/// Called on the watching thread for each event from logind (never for a look-alike signal of
/// another sender).
typedef void (*llb_event_fn)(void *context, int event, int64_t uid);

/// Watches logind on the bus at `address` (the system bus when NULL; DBUS_SYSTEM_BUS_ADDRESS is
/// honoured) on the calling thread until `stop_fd` is readable (returns 0) or the bus fails
/// (returns -errno). A signal counts only when its sender is the unique name that owns
/// org.freedesktop.login1 (GetNameOwner, then NameOwnerChanged from the bus itself); a session's
/// uid is its `User` property, asked of that owner.
int llb_watch(const char *address, int stop_fd, llb_event_fn on_event, void *context);

#endif
