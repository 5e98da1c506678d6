#!/usr/bin/python3
"""A desktop notification service for tests (org.freedesktop.Notifications on the session bus).

  notification_service.py RECORD [--click]

Offers actions (GetCapabilities), writes each Notify it receives to RECORD as a JSON line, and
with --click, clicks the first action of each notification at once, as a person would (the
ActionInvoked signal). Prints "ready" once it owns the name. python3-dbus and python3-gi.
"""
import argparse, json, sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

INTERFACE = "org.freedesktop.Notifications"


class Service(dbus.service.Object):
    def __init__(self, bus, record, click):
        super().__init__(bus, "/org/freedesktop/Notifications")
        self.record, self.click, self.last = record, click, 0

    @dbus.service.method(INTERFACE, in_signature="", out_signature="as")
    def GetCapabilities(self):
        return ["actions", "body"]

    @dbus.service.method(INTERFACE, in_signature="", out_signature="ssss")
    def GetServerInformation(self):
        return ("photolibd-tests", "photolibd", "1", "1.2")

    @dbus.service.method(INTERFACE, in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app, replaces, icon, summary, body, actions, hints, timeout):
        self.last += 1
        number = self.last
        with open(self.record, "a") as f:
            f.write(json.dumps({"id": number, "app": str(app), "summary": str(summary), "body": str(body),
                                "actions": [str(a) for a in actions]}) + "\n")
        if self.click and len(actions) >= 2:
            key = str(actions[2] if len(actions) >= 4 else actions[0])
            GLib.idle_add(lambda: (self.ActionInvoked(number, key), self.NotificationClosed(number, 2), False)[-1])
        return number

    @dbus.service.method(INTERFACE, in_signature="u", out_signature="")
    def CloseNotification(self, number):
        self.NotificationClosed(number, 3)

    @dbus.service.signal(INTERFACE, signature="us")
    def ActionInvoked(self, number, key):
        pass

    @dbus.service.signal(INTERFACE, signature="uu")
    def NotificationClosed(self, number, reason):
        pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("record")
    parser.add_argument("--click", action="store_true")
    args = parser.parse_args()
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    name = dbus.service.BusName(INTERFACE, bus)
    service = Service(bus, args.record, args.click)
    print("ready", flush=True)
    GLib.MainLoop().run()


if __name__ == "__main__":
    main()
