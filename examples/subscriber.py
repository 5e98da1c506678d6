#!/usr/bin/env python3
"""A photolibd subscriber in Python's standard library alone.

Keeps a mirror of one app's view: lists it once, then applies change events
(removed, inserted, changed, in that order), reloading on `incremental: false`
or `reset`. Prints one line per event; with --count N it exits after N events.
With --ask, an app whose access is not yet decided first asks the person
(requestAuthorization) and waits for the answer (photolibctl answer).

    examples/subscriber.py APP [--ask] [--socket PATH] [--since TOKEN] [--count N]

The socket is --socket, else $PHOTOLIBD_ENDPOINT (the app's own endpoint,
inside the sandbox 'photolibctl app sandbox APP' describes), else
$PHOTOLIBD_SOCKET, else the per-user default.
"""
import argparse, json, os, socket, sys


def default_socket():
    # Inside the sandbox 'photolibctl app sandbox APP' describes, the app's own endpoint.
    if os.environ.get("PHOTOLIBD_ENDPOINT"):
        return os.environ["PHOTOLIBD_ENDPOINT"]
    if os.environ.get("PHOTOLIBD_SOCKET"):
        return os.environ["PHOTOLIBD_SOCKET"]
    runtime = os.environ.get("XDG_RUNTIME_DIR") or f"/run/user/{os.getuid()}"
    return os.path.join(runtime, "photolibd.sock")


class Client:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.stream = self.sock.makefile("rwb")
        self.next_id = 1
        greeting = self.read()
        if "error" in greeting:
            sys.exit(greeting["error"]["message"])
        assert greeting["hello"] == "photolibd" and greeting["protocol"] == 1, greeting

    def read(self):
        line = self.stream.readline()
        if not line:
            sys.exit("photolibd closed the connection")
        return json.loads(line)

    def call(self, method, **params):
        request_id = self.next_id
        self.next_id += 1
        self.stream.write(json.dumps({"id": request_id, "method": method, "params": params}).encode() + b"\n")
        self.stream.flush()
        while True:
            message = self.read()
            if message.get("id") != request_id:
                continue  # an event that arrived before the reply is not expected here
            if "error" in message:
                sys.exit(f"{message['error']['code']}: {message['error']['message']}")
            return message["result"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("app")
    parser.add_argument("--socket", default=default_socket())
    parser.add_argument("--since", type=int)
    parser.add_argument("--count", type=int)
    parser.add_argument("--ask", action="store_true", help="ask the person for access first, if not yet decided")
    args = parser.parse_args()

    client = Client(args.socket)
    if args.ask and client.call("authorizationStatus", app=args.app)["readWrite"] == "notDetermined":
        print("asking the person for access (they answer with 'photolibctl answer')", flush=True)
        # The reply comes when the person has answered: it is the answer.
        answer = client.call("requestAuthorization", app=args.app, access="readWrite")
        print(f"the person answered: {answer['status']}", flush=True)
    view = {asset["id"]: asset for asset in client.call("list", app=args.app)["assets"]}
    print(f"listed {len(view)} assets", flush=True)
    params = {"app": args.app}
    if args.since is not None:
        params["since"] = args.since
    subscribed = client.call("subscribe", **params)
    print(f"subscribed at token {subscribed['token']}", flush=True)

    seen = 0
    while args.count is None or seen < args.count:
        event = client.read()
        seen += 1
        kind = event["event"]
        if kind == "reset" or (kind == "change" and not event["incremental"]):
            view = {asset["id"]: asset for asset in client.call("list", app=args.app)["assets"]}
            print(f"[{event['token']}] reloaded: {len(view)} assets", flush=True)
        elif kind == "change":
            for asset in event["removed"]:
                view.pop(asset["id"], None)
            for asset in event["inserted"] + event["changed"]:
                view[asset["id"]] = asset
            print(f"[{event['token']}] -{len(event['removed'])} +{len(event['inserted'])} "
                  f"~{len(event['changed'])}: {sorted(a['entry'] for a in view.values())}", flush=True)
        else:
            print(f"[{event['token']}] {kind} by uid {event['by']['uid']}", flush=True)


if __name__ == "__main__":
    main()
