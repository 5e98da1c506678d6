"""One request to photolibd over its socket, for the test scripts in scripts/."""
import json
import socket


class Failure(Exception):
    """A check failed, or the daemon answered with an error."""


def request(path, method, params=None, timeout=60):
    """Connects, reads the greeting, sends one request and returns its result (raises Failure on an error reply)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        s.connect(path)
        reader = s.makefile("rb")
        reader.readline()
        message = {"id": 1, "method": method}
        if params is not None:
            message["params"] = params
        s.sendall(json.dumps(message).encode() + b"\n")
        reply = json.loads(reader.readline())
    if "error" in reply:
        raise Failure(f"{method}: {reply['error']['message']}")
    return reply["result"]
