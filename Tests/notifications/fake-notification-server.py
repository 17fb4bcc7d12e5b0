#!/usr/bin/python3
"""A fake desktop notification server (org.freedesktop.Notifications) on the bus at argv[1]:
records every Notify and CloseNotification call as one JSON line in the file argv[2], before it
answers, and prints READY once it owns the name. For Tests/DesktopNotificationsTests."""
import json
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

INTERFACE = "org.freedesktop.Notifications"


def plain(value):
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (dbus.Byte, dbus.Int32, dbus.UInt32, dbus.Int64, dbus.UInt64)):
        return int(value)
    return str(value)


class Server(dbus.service.Object):
    def __init__(self, bus, log):
        super().__init__(bus, "/org/freedesktop/Notifications")
        self.log = log
        self.last = 0

    def record(self, entry):
        with open(self.log, "a") as f:
            f.write(json.dumps(entry, ensure_ascii=False) + "\n")

    @dbus.service.method(INTERFACE, in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app, replaces, icon, summary, body, actions, hints, timeout):
        self.last += 1
        self.record({"call": "Notify", "id": self.last, "app": str(app), "replaces": int(replaces),
                     "icon": str(icon), "summary": str(summary), "body": str(body),
                     "actions": [str(a) for a in actions],
                     "hints": {str(k): plain(v) for k, v in hints.items()}, "timeout": int(timeout)})
        return self.last

    @dbus.service.method(INTERFACE, in_signature="u", out_signature="")
    def CloseNotification(self, id):
        self.record({"call": "CloseNotification", "id": int(id)})

    @dbus.service.method(INTERFACE, in_signature="", out_signature="as")
    def GetCapabilities(self):
        return ["body", "body-markup"]

    @dbus.service.method(INTERFACE, in_signature="", out_signature="ssss")
    def GetServerInformation(self):
        return ["fake", "localauthd tests", "1", "1.2"]


def main():
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(sys.argv[1])
    name = dbus.service.BusName(INTERFACE, bus, do_not_queue=True)
    server = Server(bus, sys.argv[2])
    print("READY", flush=True)
    GLib.MainLoop().run()


if __name__ == "__main__":
    main()
