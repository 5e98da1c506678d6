#!/usr/bin/env python3
"""A sandboxed photo app's side of photolibd, in Python's standard library alone.

Run inside the sandbox that `photolibctl app sandbox APP --bwrap` (or the
flatpak override it prints) describes: the app finds its endpoint in
$PHOTOLIBD_ENDPOINT and its view in $PHOTOLIBD_VIEW, and has nothing else.
With --ask it first asks the person for access when its status is not yet
determined (the reply comes when the person answers with `photolibctl
answer`), and with --review it asks to choose more photos (the answer names
the assets newly shared). It lists its view, subscribes, waits for one change,
then reconnects and resumes from the last token it saw, as an app that was
closed meanwhile does.
Then it reports what else it can reach (nothing, if the sandbox is right).
Prints one JSON object per line; the tests read them.

    examples/sandboxed_app.py [--ask] [--review] [--wait-seconds N] [--probe PATH ...]
"""
import argparse, json, os, socket, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from photolib_client import Connection as Endpoint


def say(**fields):
    print(json.dumps(fields), flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--wait-seconds", type=float, default=30)
    parser.add_argument("--ask", action="store_true", help="ask for read-write access first, if not yet determined")
    parser.add_argument("--review", action="store_true", help="ask the person to choose more photos (a limited app)")
    parser.add_argument("--probe", nargs="*", default=[], help="paths the sandbox must not give (each is reported)")
    args = parser.parse_args()
    endpoint_path, view = os.environ.get("PHOTOLIBD_ENDPOINT"), os.environ.get("PHOTOLIBD_VIEW")
    if not endpoint_path:
        sys.exit("PHOTOLIBD_ENDPOINT is not set: run me in the sandbox 'photolibctl app sandbox APP' describes")

    first = Endpoint(endpoint_path, args.wait_seconds)
    say(step="greeting", greeting=first.greeting)
    if "error" in first.greeting:
        return
    if args.ask:
        status = first.call("authorizationStatus")["result"]["readWrite"]
        if status == "notDetermined":
            # Waits until the person answers: the reply is the answer.
            say(step="asked", reply=first.call("requestAuthorization", {"access": "readWrite"}))
        else:
            say(step="asked", status=status)
    if args.review:
        say(step="reviewed", reply=first.call("requestReview"))
    listed = first.call("list")
    say(step="list", reply=listed)
    say(step="view", entries=sorted(os.listdir(view)) if view else None)
    subscribed = first.call("subscribe", {"since": listed["result"]["token"]})
    say(step="subscribed", reply=subscribed)
    token = subscribed["result"]["token"]
    event = first.read()
    say(step="event", event=event)
    token = max(token, event.get("token", token))
    first.sock.close()

    # Closed and opened again: resume from the last token seen.
    second = Endpoint(endpoint_path, args.wait_seconds)
    resumed = second.call("subscribe", {"since": token})
    say(step="resumed", reply=resumed)
    second.sock.close()

    try:
        with open(os.path.join(view, "written-by-the-app.jpg"), "wb") as f:
            f.write(b"x")
        say(step="write-view", ok=True)
    except OSError as error:
        say(step="write-view", ok=False, errno=error.errno)
    for path in args.probe:
        try:
            if os.path.isdir(path):
                os.listdir(path)
            else:
                probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                probe.connect(path)
                line = probe.makefile("rb").readline()
                probe.close()
                say(step="probe", path=path, reached=True, answer=json.loads(line) if line else None)
                continue
            say(step="probe", path=path, reached=True)
        except OSError as error:
            say(step="probe", path=path, reached=False, errno=error.errno)


if __name__ == "__main__":
    main()
