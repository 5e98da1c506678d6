"""A minimal photolibd client in Python's standard library alone, shared by the examples.

Lines of JSON over a Unix stream socket (docs/PROTOCOL.md). Every read is a
recvmsg (socket.recv_fds), because a pick's reply carries the chosen files as
descriptors: a plain recv would make the kernel close them.
"""
import json, os, socket


class Connection:
    """One connection to photolibd: the app's endpoint, or the main socket for an app with a uid of its own."""

    def __init__(self, path=None, timeout=None):
        path = path or os.environ.get("PHOTOLIBD_ENDPOINT")
        if not path:
            raise SystemExit("PHOTOLIBD_ENDPOINT is not set: run me in the sandbox 'photolibctl app sandbox APP' describes, or pass --socket")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.buffer = b""
        self.descriptors = []  # passed with reply lines, oldest first, not yet taken
        self.next_id = 1
        self.greeting = self.read()

    def read(self):
        """The next line, as a dict; descriptors that came with it are queued."""
        while b"\n" not in self.buffer:
            data, fds, flags, _ = socket.recv_fds(self.sock, 65536, 253)
            self.descriptors += fds
            if flags & socket.MSG_CTRUNC:
                raise RuntimeError("the kernel dropped passed files: this process has too many open; raise 'ulimit -n'")
            if not data:
                raise ConnectionError("photolibd closed the connection")
            self.buffer += data
        line, _, self.buffer = self.buffer.partition(b"\n")
        return json.loads(line)

    def call(self, method, params=None):
        """Sends a request and returns its reply (events that come first are skipped: match by id)."""
        request = {"id": self.next_id, "method": method}
        if params is not None:
            request["params"] = params
        self.next_id += 1
        self.sock.sendall(json.dumps(request).encode() + b"\n")
        while True:
            message = self.read()
            if message.get("id") == request["id"]:
                return message

    def take_descriptors(self, count):
        taken, self.descriptors = self.descriptors[:count], self.descriptors[count:]
        if len(taken) != count:
            raise RuntimeError(f"the reply names {count} files and {len(taken)} came with it")
        return taken

    def close(self):
        for fd in self.descriptors:
            os.close(fd)
        self.sock.close()
