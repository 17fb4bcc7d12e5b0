#!/usr/bin/python3
# A hostile process of another uid on the private system bus (issue 34's tests): it tries to own
# org.freedesktop.login1 (the policy refuses), then sends logind's signals with logind's paths and
# interfaces, broadcast and to every other connection directly, after a forged NameOwnerChanged
# that names itself login1's owner. Prints "refused" or "owned", then SENT once the bus has
# routed every signal (a round trip after them).
import sys

import dbus
import dbus.lowlevel

ROOT = "/org/freedesktop/login1"
MANAGER = "org.freedesktop.login1.Manager"
SESSION = "org.freedesktop.login1.Session"
session = sys.argv[1]

bus = dbus.SystemBus()
try:
    owned = bus.request_name("org.freedesktop.login1", dbus.bus.NAME_FLAG_DO_NOT_QUEUE) == 1
except dbus.exceptions.DBusException:
    owned = False
print("owned" if owned else "refused", flush=True)

me = bus.get_unique_name()
path = dbus.ObjectPath(ROOT + "/session/" + session)
signals = [
    ("/org/freedesktop/DBus", "org.freedesktop.DBus", "NameOwnerChanged", "sss",
     ["org.freedesktop.login1", "", me]),
    (str(path), SESSION, "Lock", "", []),
    (ROOT, MANAGER, "PrepareForSleep", "b", [True]),
    (ROOT, MANAGER, "SessionNew", "so", ["evil", dbus.ObjectPath(ROOT + "/session/evil")]),
    (ROOT, MANAGER, "SessionRemoved", "so", [session, path]),
]
others = [n for n in bus.list_names() if n.startswith(":") and n != me]
for destination in [None] + others:
    for object_path, interface, member, signature, arguments in signals:
        message = dbus.lowlevel.SignalMessage(object_path, interface, member)
        if destination:
            message.set_destination(destination)
        if arguments:
            message.append(*arguments, signature=signature)
        bus.send_message(message)
bus.list_names()
print("SENT", flush=True)
