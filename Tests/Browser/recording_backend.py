#!/usr/bin/python3
"""A stand-in for the desktop's own file-chooser backend (org.freedesktop.impl.portal.FileChooser):
records each call it gets, one JSON line per call in RECORD, and answers each with
(0, {"uris": ["file:///forwarded/METHOD"], "choices": [["kind", "recorded"]]}).

  recording_backend.py BUS_NAME RECORD
"""
import json
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

IFACE = "org.freedesktop.impl.portal.FileChooser"


def plain(value):
    if isinstance(value, (dbus.Array, dbus.Struct, list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dbus.Dictionary):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (dbus.UInt32, dbus.Int32, dbus.UInt64, dbus.Int64, dbus.Byte)):
        return int(value)
    return str(value)


class Recorder(dbus.service.Object):
    def __init__(self, bus, record):
        super().__init__(bus, "/org/freedesktop/portal/desktop")
        self.record = record

    def answer(self, method, handle, app_id, parent, title, options):
        with open(self.record, "a") as out:
            out.write(json.dumps({"method": method, "handle": str(handle), "app": str(app_id), "parent": str(parent), "title": str(title),
                                  "options": plain(options)}) + "\n")
        results = {"uris": dbus.Array(["file:///forwarded/" + method], signature="s"),
                   "choices": dbus.Array([dbus.Struct(("kind", "recorded"), signature="ss")], signature="(ss)")}
        return dbus.UInt32(0), dbus.Dictionary(results, signature="sv")

    @dbus.service.method(IFACE, in_signature="osssa{sv}", out_signature="ua{sv}")
    def OpenFile(self, handle, app_id, parent, title, options):
        return self.answer("OpenFile", handle, app_id, parent, title, options)

    @dbus.service.method(IFACE, in_signature="osssa{sv}", out_signature="ua{sv}")
    def SaveFile(self, handle, app_id, parent, title, options):
        return self.answer("SaveFile", handle, app_id, parent, title, options)

    @dbus.service.method(IFACE, in_signature="osssa{sv}", out_signature="ua{sv}")
    def SaveFiles(self, handle, app_id, parent, title, options):
        return self.answer("SaveFiles", handle, app_id, parent, title, options)


def main():
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    name = dbus.service.BusName(sys.argv[1], bus)
    recorder = Recorder(bus, sys.argv[2])
    print("ready", flush=True)
    GLib.MainLoop().run()
    del name, recorder


if __name__ == "__main__":
    main()
