#!/usr/bin/python3
# A stand-in for systemd-logind on a private system bus (issue 34's tests): owns
# org.freedesktop.login1, answers ListSessions and each session's User property, and emits
# Lock, PrepareForSleep, SessionNew and SessionRemoved when told on stdin, one command a line:
#   lock ID | sleep | wake | new ID UID | remove ID
# It prints READY once it owns the name and OK after each command (its signals sent).
import sys

import dbus
import dbus.service
import dbus.mainloop.glib
from gi.repository import GLib

NAME = "org.freedesktop.login1"
ROOT = "/org/freedesktop/login1"
MANAGER = "org.freedesktop.login1.Manager"
SESSION = "org.freedesktop.login1.Session"

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.SystemBus()
sessions = {}


def session_path(session_id):
    return dbus.ObjectPath(ROOT + "/session/" + session_id)


class Session(dbus.service.Object):
    def __init__(self, session_id, uid):
        super().__init__(bus, session_path(session_id))
        self.uid = uid

    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        if interface == SESSION and name == "User":
            user = dbus.ObjectPath(ROOT + "/user/_%d" % self.uid)
            return dbus.Struct((dbus.UInt32(self.uid), user), signature="uo")
        raise dbus.exceptions.DBusException(
            "org.freedesktop.DBus.Error.UnknownProperty", name)

    @dbus.service.signal(SESSION, signature="")
    def Lock(self):
        pass


class Manager(dbus.service.Object):
    @dbus.service.method(MANAGER, in_signature="", out_signature="a(susso)")
    def ListSessions(self):
        return [(i, dbus.UInt32(s.uid), "user%d" % s.uid, "", session_path(i))
                for i, s in sessions.items()]

    @dbus.service.signal(MANAGER, signature="b")
    def PrepareForSleep(self, start):
        pass

    @dbus.service.signal(MANAGER, signature="so")
    def SessionNew(self, session_id, path):
        pass

    @dbus.service.signal(MANAGER, signature="so")
    def SessionRemoved(self, session_id, path):
        pass


manager = Manager(bus, ROOT)
for argument in sys.argv[1:]:  # ID:UID sessions that exist from the start
    session_id, uid = argument.split(":")
    sessions[session_id] = Session(session_id, int(uid))


def command(source, condition):
    line = sys.stdin.readline()
    if not line:
        loop.quit()
        return False
    words = line.split()
    if words[0] == "lock":
        sessions[words[1]].Lock()
    elif words[0] in ("sleep", "wake"):
        manager.PrepareForSleep(words[0] == "sleep")
    elif words[0] == "new":
        sessions[words[1]] = Session(words[1], int(words[2]))
        manager.SessionNew(words[1], session_path(words[1]))
    elif words[0] == "remove":
        sessions.pop(words[1]).remove_from_connection()
        manager.SessionRemoved(words[1], session_path(words[1]))
    bus.flush()
    print("OK", flush=True)
    return True


reply = bus.request_name(NAME, dbus.bus.NAME_FLAG_DO_NOT_QUEUE)
if reply != dbus.bus.REQUEST_NAME_REPLY_PRIMARY_OWNER:
    sys.exit("cannot own " + NAME)
GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, command)
print("READY", flush=True)
loop = GLib.MainLoop()
loop.run()
