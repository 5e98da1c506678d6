#!/usr/bin/env python3
"""Asks the person to pick photos, and saves copies of what they chose (PHPickerViewController's way).

The app needs no access at all: the person's choice is the permission. The
reply comes when the person answers with `photolibctl answer REQUEST ASSET...`
(or `cancel`); the chosen files arrive as read-only descriptors passed over
the connection, in the person's order, a Live Photo as its two files when
`live` is asked for. Nothing is added to the app's view and nothing stays
granted. Prints one JSON object per line; the tests read them.

    examples/pick_photos.py [--types image,video,live] [--limit N] [--ordered] [--accepts image/jpeg,...] [--save DIR] [--socket PATH]
"""
import argparse, hashlib, json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from photolib_client import Connection


def say(**fields):
    print(json.dumps(fields), flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--types", default="image,video,live")
    parser.add_argument("--limit", type=int, default=1, help="0: as many as the person likes")
    parser.add_argument("--ordered", action="store_true")
    parser.add_argument("--save", help="directory to save copies into")
    parser.add_argument("--accepts", help="the types this app reads, such as image/jpeg,image/png: a photo of another type arrives as a JPEG")
    parser.add_argument("--socket", help="the main socket, for an app with a uid of its own (default: $PHOTOLIBD_ENDPOINT)")
    parser.add_argument("--wait-seconds", type=float, default=None)
    parser.add_argument("--try-reopen", action="store_true",
                        help="try to write each file through /proc/self/fd (to show that no original can be changed)")
    args = parser.parse_args()

    connection = Connection(args.socket, args.wait_seconds)
    say(step="greeting", greeting=connection.greeting)
    if "error" in connection.greeting:
        return
    asked = {"types": args.types.split(","), "limit": args.limit, "ordered": args.ordered}
    if args.accepts:
        asked["accepts"] = args.accepts.split(",")
    reply = connection.call("pick", asked)
    if "error" in reply:
        say(step="pick", error=reply["error"])
        return
    result = reply["result"]
    count = sum(len(asset["files"]) for asset in result["assets"])
    descriptors = connection.take_descriptors(count)
    picked, position = [], 0
    for asset in result["assets"]:
        files = []
        for described in asset["files"]:
            fd = descriptors[position]
            position += 1
            data = b""
            while chunk := os.read(fd, 1 << 20):
                data += chunk
            try:
                os.write(fd, b"x")
                writable = True
            except OSError:
                writable = False
            reopened = None
            if args.try_reopen:
                try:
                    with open(f"/proc/self/fd/{fd}", "r+b") as again:
                        again.write(b"changed by the app")
                    reopened = True
                except OSError:
                    reopened = False
            os.close(fd)
            if args.save:
                name = os.path.basename(described["name"]) or "unnamed"
                with open(os.path.join(args.save, f"{asset['id']}-{name}"), "wb") as saved:
                    saved.write(data)
            files.append({"name": described["name"], "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(),
                          "writable": writable, "reopened": reopened, "copy": described.get("copy", False),
                          "converted": described.get("converted")})
        picked.append({"id": asset["id"], "mediaType": asset["mediaType"], "files": files})
    say(step="picked", request=result["request"], state=result["state"], assets=picked, unclaimed=len(connection.descriptors))
    connection.close()


if __name__ == "__main__":
    main()
