#!/usr/bin/python3
"""An app asking the desktop for files as Flatpak apps do: org.freedesktop.portal.FileChooser
on the session bus, its answer read from the Request's Response signal.

  portal_client.py open  --filter 'Photos' 'mime:image/jpeg' 'glob:*.png' [--multiple] [--copy-to DIR]
  portal_client.py save  --name report.pdf
  portal_client.py read  PATH...

Prints one JSON line: {"response": N, "uris": [...], "results": {...}, "files": [{"path", "size", "copied"}]}.
With --copy-to, each chosen file's bytes are copied there (the test reads them outside the sandbox).
`read` prints, for each path, its size or the error reading it gave.
"""
import argparse
import json
import os
import shutil
import sys
import urllib.parse

import dbus
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib


def ask(method, arguments, options, close_when=None):
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    token = "photolibd%d" % os.getpid()
    sender = bus.get_unique_name()[1:].replace(".", "_")
    handle = "/org/freedesktop/portal/desktop/request/%s/%s" % (sender, token)
    answer = {}
    loop = GLib.MainLoop()

    def on_response(response, results):
        answer["response"] = int(response)
        answer["results"] = {str(k): unwrap(v) for k, v in results.items()}
        loop.quit()

    # Subscribed before the call: the answer may come before the call returns.
    bus.add_signal_receiver(on_response, "Response", "org.freedesktop.portal.Request", "org.freedesktop.portal.Desktop", handle)
    portal = bus.get_object("org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop")
    chooser = dbus.Interface(portal, "org.freedesktop.portal.FileChooser")
    options = dict(options)
    options["handle_token"] = dbus.String(token)
    returned = getattr(chooser, method)(*arguments, dbus.Dictionary(options, signature="sv"), timeout=3600)
    if str(returned) != handle:
        bus.add_signal_receiver(on_response, "Response", "org.freedesktop.portal.Request", "org.freedesktop.portal.Desktop", str(returned))
    if close_when:
        # The app gives up on its dialog once the test says so (the file appears): Request.Close, after which no Response comes.
        def check():
            if not os.path.exists(close_when):
                return True
            request = dbus.Interface(bus.get_object("org.freedesktop.portal.Desktop", str(returned)), "org.freedesktop.portal.Request")
            request.Close()
            answer["closed"] = True
            loop.quit()
            return False
        GLib.timeout_add(100, check)
    loop.run()
    return answer


def unwrap(value):
    if isinstance(value, (dbus.Array, list)):
        return [unwrap(v) for v in value]
    if isinstance(value, (dbus.Struct, tuple)):
        return [unwrap(v) for v in value]
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (dbus.UInt32, dbus.Int32, dbus.UInt64, dbus.Int64)):
        return int(value)
    return str(value)


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    o = sub.add_parser("open")
    o.add_argument("--filter", nargs="+", action="append", default=[], metavar=("NAME", "PATTERN"))
    o.add_argument("--multiple", action="store_true")
    o.add_argument("--directory", action="store_true")
    o.add_argument("--copy-to")
    o.add_argument("--close-when", help="close the dialog (Request.Close) once this file exists")
    s = sub.add_parser("save")
    s.add_argument("--name", required=True)
    s.add_argument("--folder", help="the folder the dialog opens in (current_folder)")
    i = sub.add_parser("impersonate", help="call photolibd's backend directly, in another app's name")
    i.add_argument("app")
    r = sub.add_parser("read")
    r.add_argument("paths", nargs="+")
    args = parser.parse_args()

    if args.command == "read":
        out = []
        for path in args.paths:
            try:
                with open(path, "rb") as f:
                    out.append({"path": path, "size": len(f.read())})
            except OSError as error:
                out.append({"path": path, "error": error.strerror})
        print(json.dumps({"files": out}), flush=True)
        return

    if args.command == "impersonate":
        bus = dbus.SessionBus()
        backend = dbus.Interface(bus.get_object("org.freedesktop.impl.portal.desktop.photolibd", "/org/freedesktop/portal/desktop"),
                                 "org.freedesktop.impl.portal.FileChooser")
        try:
            filters = dbus.Array([dbus.Struct(("Photos", dbus.Array([dbus.Struct((dbus.UInt32(1), "image/*"), signature="us")], signature="(us)")),
                                              signature="sa(us)")], signature="(sa(us))")
            result = backend.OpenFile(dbus.ObjectPath("/org/freedesktop/portal/desktop/request/1_1/x"), args.app, "", "Choose",
                                      dbus.Dictionary({"filters": filters}, signature="sv"), timeout=30)
            print(json.dumps({"answered": unwrap(result)}), flush=True)
        except dbus.exceptions.DBusException as error:
            print(json.dumps({"error": error.get_dbus_name(), "message": error.get_dbus_message()}), flush=True)
        return

    if args.command == "save":
        options = {"current_name": dbus.String(args.name)}
        if args.folder:
            options["current_folder"] = dbus.ByteArray(args.folder.encode() + b"\0")
        answer = ask("SaveFile", ["", "Save the report"], options)
    else:
        filters = []
        for name, *patterns in args.filter:
            pairs = [dbus.Struct((dbus.UInt32(1 if p.startswith("mime:") else 0), dbus.String(p.split(":", 1)[1])), signature="us")
                     for p in patterns]
            filters.append(dbus.Struct((dbus.String(name), dbus.Array(pairs, signature="(us)")), signature="sa(us)"))
        options = {"multiple": dbus.Boolean(args.multiple), "directory": dbus.Boolean(args.directory)}
        if filters:
            options["filters"] = dbus.Array(filters, signature="(sa(us))")
        answer = ask("OpenFile", ["", "Choose a photo"], options, close_when=args.close_when)

    uris = answer.get("results", {}).get("uris", [])
    files = []
    for uri in uris:
        path = urllib.parse.unquote(urllib.parse.urlparse(uri).path)
        entry = {"path": path}
        try:
            entry["size"] = os.stat(path).st_size
            if getattr(args, "copy_to", None):
                target = os.path.join(args.copy_to, os.path.basename(path))
                shutil.copyfile(path, target)
                entry["copied"] = target
        except OSError as error:
            entry["error"] = error.strerror
        files.append(entry)
    print(json.dumps({"closed": answer.get("closed", False), "response": answer.get("response"), "uris": uris, "results": answer.get("results", {}), "files": files}), flush=True)


if __name__ == "__main__":
    sys.exit(main())
