#!/usr/bin/env python3
"""Adds a photo to the library through the app's inbox, and waits to hear what became of it.

PHAssetCreationRequest's way for a camera or scanner app: write the file
under a hidden name in $PHOTOLIBD_INBOX (or --inbox), rename it in when it is
complete, and read the `import` event: `added` (with the new asset, for a
limited or authorized app), `accepted` (an add-only app learns nothing more)
or `rejected` (with the reason; the file is left in the inbox's rejected/).
Prints one JSON object per line.

    examples/add_photo.py PHOTO [--inbox DIR] [--socket PATH] [--wait-seconds N]
"""
import argparse, json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from photolib_client import Connection


def say(**fields):
    print(json.dumps(fields), flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("photo")
    parser.add_argument("--inbox", default=os.environ.get("PHOTOLIBD_INBOX"))
    parser.add_argument("--socket", help="the main socket, for an app with a uid of its own (default: $PHOTOLIBD_ENDPOINT)")
    parser.add_argument("--wait-seconds", type=float, default=30)
    args = parser.parse_args()
    if not args.inbox:
        sys.exit("PHOTOLIBD_INBOX is not set: run me in the sandbox 'photolibctl app sandbox APP' describes, or pass --inbox")

    connection = Connection(args.socket, args.wait_seconds)
    if "error" in connection.greeting:
        say(step="greeting", greeting=connection.greeting)
        return
    # Subscribed first, so the event cannot come before we listen.
    subscribed = connection.call("subscribe", {})
    say(step="subscribed", reply=subscribed)
    name = os.path.basename(args.photo)
    partial = os.path.join(args.inbox, "." + name + ".part")
    with open(args.photo, "rb") as source, open(partial, "wb") as target:
        target.write(source.read())
    os.rename(partial, os.path.join(args.inbox, name))  # complete: the daemon takes it now
    say(step="written", name=name)
    while True:
        event = connection.read()
        if event.get("event") == "import" and event.get("name") == name:
            say(step="import", event=event)
            break
    connection.close()


if __name__ == "__main__":
    main()
