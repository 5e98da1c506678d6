"""A photolibd under test for the crash scripts: start it, kill it, check its views and database."""
import os
import signal
import sqlite3
import subprocess
import threading
import time

from photolibd_socket import Failure, request


class Trial:
    """One library, views directory, state directory and socket under ROOT, and the daemon serving them."""

    def __init__(self, root, binaries):
        self.root = root
        self.binaries = binaries
        self.library = os.path.join(root, "lib")
        self.socket = os.path.join(root, "sock")
        self.daemon = None
        self.killed = threading.Event()

    def ctl(self, *arguments):
        return subprocess.run([os.path.join(self.binaries, "photolibctl"), *arguments, "--socket", self.socket],
                              capture_output=True, text=True)

    def start(self):
        """Starts the daemon and returns once it answers `status` with ready (or degraded)."""
        self.launch()
        self.wait_ready()

    def launch(self):
        """Starts the daemon without waiting for it."""
        with open(os.path.join(self.root, "daemon.log"), "ab") as log:
            self.killed.clear()
            self.daemon = subprocess.Popen(
                [os.path.join(self.binaries, "photolibd"), "--library", self.library, "--views-dir", os.path.join(self.root, "views"),
                 "--state-dir", os.path.join(self.root, "state"), "--socket", self.socket], stdout=log, stderr=log)

    def wait_ready(self):
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.daemon.poll() is not None:
                raise Failure(f"photolibd exited with {self.daemon.returncode}; see {self.root}/daemon.log")
            try:
                if request(self.socket, "status", timeout=5)["state"] in ("ready", "degraded"):
                    return
            except (OSError, ValueError, Failure):
                pass
            time.sleep(0.01)
        raise Failure("photolibd did not become ready within 120 s")

    def kill(self):
        # Set first: an edit failing from now on may be the kill's doing.
        self.killed.set()
        self.daemon.send_signal(signal.SIGKILL)
        self.daemon.wait()


def verify_views(trial):
    """Every view holds exactly one hardlink per asset its app may see (by the daemon's own listing), and nothing else."""
    assets = request(trial.socket, "assets", {})["assets"]
    by_id = {a["id"]: a for a in assets}
    def inode(relative):
        return os.lstat(os.path.join(trial.library, relative)).st_ino
    for info in request(trial.socket, "apps")["apps"]:
        app, status = info["app"], info["readWrite"]
        if status == "authorized":
            visible = [a["path"] for a in assets if not a.get("refused")]
        elif status == "limited":
            selection = request(trial.socket, "selection", {"app": app})
            albums = selection["albums"]
            chosen = {a["id"] for a in selection["assets"]}
            visible = [a["path"] for a in assets if not a.get("refused") and
                       (a["id"] in chosen or any(a["path"].startswith(album + "/") for album in albums))]
        else:
            visible = []
        wanted = sorted(inode(path) for path in visible)
        view = info["view"]
        present = []
        for directory, _, files in os.walk(view):
            present += [os.lstat(os.path.join(directory, name)).st_ino for name in files]
        if sorted(present) != wanted:
            raise Failure(f"the view of {app} ({status}) holds {len(present)} entries, wanted {len(wanted)}: "
                          f"extra {sorted(set(present) - set(wanted))[:5]}, missing {sorted(set(wanted) - set(present))[:5]}")


def integrity(root):
    """SQLite's integrity_check on the database the daemon left in ROOT/state, read-only."""
    database = os.path.join(root, "state", "photolibd.sqlite")
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        return db.execute("PRAGMA integrity_check").fetchone()[0]
