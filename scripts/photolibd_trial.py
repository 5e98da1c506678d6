"""A photolibd under test for the crash scripts: start it, kill it, check its views and database."""
import atexit
import hashlib
import os
import pwd
import shutil
import tempfile
from collections import Counter
import signal
import sqlite3
import subprocess
import sys
import threading
import time

from photolibd_socket import Failure, request
from photolibd_child import Child, ChildTimeout

# What a run made that outlives it when it fails on purpose (os._exit, for a post-mortem):
# the shell commands that remove each, newest first when printed.
_left = {}


def cleanup_commands():
    """The commands that remove what a failed run left (its user and their processes, mounts, directories)."""
    return list(reversed(list(_left.values())))


def say_what_is_left(stream):
    """After a failure left on purpose: what remains, and how to remove it once the post-mortem is done."""
    left = cleanup_commands()
    if left:
        print("Left for a post-mortem (the daemon, its user, its trial directory); afterwards, remove them with:\n  "
              + "\n  ".join(left), file=stream)


def leave(key, command):
    _left[key] = command


# Every daemon a trial started, stopped through its pidfd when a failed run cleans up after itself.
_daemons = []


def after_failure(stream, keep):
    """After a failure: with KEEP, say what is left for a post-mortem and how to remove it; otherwise
    remove it all now (the daemons through their pidfds, then the user, mounts and directories), so
    a failed `make test` leaves nothing running or mounted."""
    if keep:
        say_what_is_left(stream)
        return
    for daemon in _daemons:
        if daemon.running():
            daemon.stop(grace=10)
    for command in cleanup_commands():
        subprocess.run(["sh", "-c", command], capture_output=True, timeout=120)
    _left.clear()
    print("Removed what the run made (its daemon, user, filesystem and directories); pass --keep to leave them for a post-mortem.",
          file=stream)


def taken(key):
    _left.pop(key, None)


class Owner:
    """The ordinary user who owns the library and runs the daemon, as people run it.

    Root ignores permissions and fs.protected_hardlinks and would hide the bugs
    users meet, so when the script runs as root it makes a system user for the
    trial (useradd) and removes it at the end (userdel); otherwise (or with
    AS_SELF) it is the user running the script.
    """

    def __init__(self, as_self=False):
        self.made = None
        if as_self or os.geteuid() != 0:
            self.uid, self.gid = os.getuid(), os.getgid()
            return
        name = f"plcrash{os.getpid()}"
        for _ in range(50):  # useradd meets /etc/passwd locked by another test now and then (exit 10)
            made = subprocess.run(["useradd", "--system", "--no-create-home", "--user-group", "--shell", "/usr/sbin/nologin", name],
                                  capture_output=True, text=True)
            if made.returncode != 10:
                break
            time.sleep(0.1)
        if made.returncode != 0:
            raise Failure(f"useradd {name} failed: {made.stderr.strip()}")
        self.made = name
        entry = pwd.getpwnam(name)
        self.uid, self.gid = entry.pw_uid, entry.pw_gid
        leave(("user", name), f"pkill -KILL -u {self.uid}; sleep 1; userdel {name}")

    def command(self, arguments):
        """ARGUMENTS run as the owner."""
        if self.made is None:
            return arguments
        return ["setpriv", f"--reuid={self.uid}", f"--regid={self.gid}", "--clear-groups", "--", *arguments]

    def reachable(self, binaries):
        """BINARIES, or a copy of photolibd, its inotify helper, its metadata library and photolibctl where the owner can run them.

        A checkout may sit where only root can enter (/root is 0700, and so is
        a mktemp -d directory): the owner's exec of a binary there fails with
        EACCES. The copies go to one 0755 directory below /tmp (hard links where
        the filesystem allows), removed when the script exits.
        """
        if self.made is None:
            return binaries
        staged = tempfile.mkdtemp(prefix="photolibd-reachable-")
        atexit.register(shutil.rmtree, staged, True)
        leave(("dir", staged), f"rm -rf {staged}")
        os.chmod(staged, 0o755)
        for tool in ("photolibd", "photolibd-inotify", "photolibd-viewfs", "photolibctl", "libphotolibd-metadata.so", "libphotolibd-bus.so"):
            source, target = os.path.join(binaries, tool), os.path.join(staged, tool)
            if not os.path.exists(source):
                raise Failure(f"{source} is missing: build first (make test builds it, or swift build)")
            try:
                os.link(source, target)
            except OSError:
                shutil.copy2(source, target)
            os.chmod(target, 0o755)
        return staged

    def own(self, path):
        if self.made is not None:
            os.chown(path, self.uid, self.gid, follow_symlinks=False)

    def write(self, path, data):
        """Creates PATH as the owner's (given away before its first byte, so it is never indexed as root's)."""
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            if self.made is not None:
                os.fchown(fd, self.uid, self.gid)
            os.write(fd, data)
        finally:
            os.close(fd)

    def makedirs(self, path, top):
        """Makes PATH and the directories up to TOP, the owner's."""
        os.makedirs(path, exist_ok=True)
        while len(path) >= len(top):
            self.own(path)
            path = os.path.dirname(path)

    def remove(self):
        if self.made is not None:
            subprocess.run(["userdel", self.made], capture_output=True)
            taken(("user", self.made))
            self.made = None


class LoopFilesystem:
    """A btrfs or XFS (with reflink) filesystem of the trial's own, in a sparse image mounted by loop (needs root):
    where views are clones."""

    MKFS = {"btrfs": ["mkfs.btrfs", "-q", "-f"], "xfs": ["mkfs.xfs", "-q", "-f", "-m", "reflink=1"]}

    def __init__(self, kind, megabytes=1024):
        self.mount_point = tempfile.mkdtemp(prefix=f"photolibd-{kind}-")
        self.image = self.mount_point + ".img"
        with open(self.image, "wb") as f:
            f.truncate(megabytes << 20)
        subprocess.run(self.MKFS[kind] + [self.image], check=True, capture_output=True)
        subprocess.run(["mount", "-o", "loop", self.image, self.mount_point], check=True, capture_output=True)
        os.chmod(self.mount_point, 0o755)
        atexit.register(self.remove)
        leave(("mount", self.mount_point), f"umount --lazy {self.mount_point}; rmdir {self.mount_point}; rm -f {self.image}")

    def remove(self):
        """Unmounts (lazily: a daemon killed just now may still hold a file) and removes the image; once."""
        if self.image is None:
            return
        subprocess.run(["umount", "--lazy", self.mount_point], capture_output=True)
        os.rmdir(self.mount_point)
        os.unlink(self.image)
        self.image = None
        taken(("mount", self.mount_point))


class Trial:
    """One library, views directory, state directory and socket under ROOT, and the daemon serving them, run by OWNER."""

    def __init__(self, root, binaries, owner=None, config=None, environment=None):
        self.root = root
        self.config = config
        # The daemon's environment, beyond what this script has (HOME, the XDG directories), or None.
        self.environment = environment
        self.owner = owner or Owner()
        self.binaries = self.owner.reachable(binaries)
        self.owner.own(root)
        self.library = os.path.join(root, "lib")
        self.views = os.path.join(root, "views")
        os.makedirs(self.library, exist_ok=True)
        self.owner.own(self.library)
        self.socket = os.path.join(root, "sock")
        self.daemon = None
        self.killed = threading.Event()
        # Whether the views are clones (view_mode = "clones"): their entries are then checked by content.
        self.clones = False

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
            # setpriv execs photolibd: the pid killed is the daemon's.
            self.daemon = Child(self.owner.command(
                [os.path.abspath(os.path.join(self.binaries, "photolibd")), "--library", self.library,
                 "--views-dir", self.views, "--state-dir", os.path.join(self.root, "state"),
                 "--socket", self.socket] + (["--config", self.config] if self.config else [])), stdout=log, stderr=log,
                env=self.environment and {name: value for name, value in {**os.environ, **self.environment}.items() if value is not None})
            _daemons.append(self.daemon)

    def wait_ready(self):
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if not self.daemon.running():
                raise Failure(f"photolibd exited with {self.daemon.proc.returncode}; see {self.root}/daemon.log")
            try:
                if request(self.socket, "status", timeout=5)["state"] in ("ready", "degraded"):
                    return
            except (OSError, ValueError, Failure):
                pass
            time.sleep(0.01)
        raise Failure("photolibd did not become ready within 120 s")

    def pinned_helper(self):
        """The daemon's photolibd-inotify, pinned by a pidfd (its number read from /proc is checked after pinning), or None."""
        parent = self.daemon.pid
        for task in os.listdir(f"/proc/{parent}/task"):
            try:
                with open(f"/proc/{parent}/task/{task}/children") as f:
                    candidates = [int(pid) for pid in f.read().split()]
            except OSError:
                continue
            for pid in candidates:
                try:
                    pidfd = os.pidfd_open(pid)
                except OSError:
                    continue  # gone meanwhile
                try:
                    with open(f"/proc/{pid}/stat") as f:
                        stat = f.read()
                    name = stat[stat.index("(") + 1:stat.rindex(")")]
                    ppid = int(stat[stat.rindex(")") + 2:].split()[1])
                    signal.pidfd_send_signal(pidfd, 0)  # still that process: its number was not reused
                    if name == "photolibd-inotify"[:15] and ppid == parent:  # comm keeps 15 bytes
                        return pidfd
                except (OSError, ValueError):
                    pass
                os.close(pidfd)
        return None

    def kill_helper(self):
        """SIGKILLs the daemon's photolibd-inotify through its pidfd; False when none runs."""
        pidfd = self.pinned_helper()
        if pidfd is None:
            return False
        try:
            signal.pidfd_send_signal(pidfd, signal.SIGKILL)
            return True
        except ProcessLookupError:
            return False
        finally:
            os.close(pidfd)

    def log_text(self):
        with open(os.path.join(self.root, "daemon.log"), "rb") as f:
            return f.read().decode(errors="replace")

    def kill(self):
        # Set first: an edit failing from now on may be the kill's doing.
        self.killed.set()
        self.daemon.signal(signal.SIGKILL)
        self.daemon.wait(60)


def member_files(asset):
    """The library paths of an asset's files that may be linked: both files of a Live Photo, less refused ones."""
    members = asset.get("members")
    if not members:
        return [] if asset.get("refused") else [asset["path"]]
    return [m["path"] for m in members if not m.get("refused")]


def verify_views(trial, unreadable=(), located=(), settle=5.0):
    """`check_views`, given up to SETTLE seconds to hold: an import the restart
    finishes lands in the listing and the views a moment apart, so a check
    between the two sees an entry the listing lacked. A view that stays wrong
    still fails, with what the last look found."""
    deadline = time.monotonic() + settle
    while True:
        try:
            return check_views(trial, unreadable, located)
        except Failure:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def check_views(trial, unreadable=(), located=()):
    """Every view holds exactly one hardlink per file of each asset its app may see (by the daemon's own listing), and nothing else.

    Files below an UNREADABLE path (one the daemon cannot read now) may lack
    their link: it cannot be made until they can be read. Nothing extra is
    allowed anywhere. A file below a LOCATED path holds a location: an app
    with location none has instead a copy from views/.derivatives, never the
    original, and a copy holds no location; every copy is linked by a view."""
    assets = request(trial.socket, "assets", {})["assets"]
    derivatives = os.path.join(trial.views, ".derivatives")
    copies = {}
    for name in (os.listdir(derivatives) if os.path.isdir(derivatives) else []):
        st = os.lstat(os.path.join(derivatives, name))
        # With clones no view links a copy: it is kept while its photo is there (a clone is made of it).
        if name.startswith(".") or (st.st_nlink < 2 and not trial.clones):
            raise Failure(f"views/.derivatives holds {name} (links: {st.st_nlink}): a leftover, or a copy no view needs")
        copies[content(os.path.join(derivatives, name)) if trial.clones else st.st_ino] = name
    if copies:
        found = subprocess.run(["exiftool", "-q", "-q", "-gps:all", "-City", "-GPSCoordinates", derivatives],
                               capture_output=True, text=True)
        if found.stdout.strip():
            raise Failure(f"a copy without location holds one: {found.stdout.strip()[:300]}")
    def has_location(relative):
        return any(relative == u or relative.startswith(u + "/") for u in located)
    def inode(relative):
        # With clones, an entry is its original's bytes in an inode of its own: compared by content.
        if trial.clones:
            return content(os.path.join(trial.library, relative))
        return os.lstat(os.path.join(trial.library, relative)).st_ino
    def entry(path):
        st = os.lstat(path)
        if not trial.clones:
            return st.st_ino
        if st.st_nlink != 1:
            raise Failure(f"{path} is linked {st.st_nlink} times: not a clone")
        return content(path)
    def waiting(relative):
        return any(relative == u or relative.startswith(u + "/") for u in unreadable)
    derivative_contents = None
    for info in request(trial.socket, "apps")["apps"]:
        app, status = info["app"], info["readWrite"]
        if status == "authorized":
            visible = [path for a in assets for path in member_files(a)]
        elif status == "limited":
            selection = request(trial.socket, "selection", {"app": app})
            albums = selection["albums"]
            chosen = {a["id"] for a in selection["assets"]}
            visible = [path for a in assets for path in member_files(a)
                       if a["id"] in chosen or any(a["path"].startswith(album + "/") for album in albums)]
        else:
            visible = []
        hidden = info.get("location") == "none"
        copied = [path for path in visible if hidden and has_location(path)]
        visible = [path for path in visible if path not in copied]
        if info.get("flatpak"):
            if derivative_contents is None:
                derivative_contents = {content(os.path.join(derivatives, name)) for name in copies.values()}
            check_pictures_folder(trial, info, visible, copied, derivative_contents, [p for p in visible + copied if waiting(p)])
            continue
        wanted = sorted(inode(path) for path in visible)
        optional = {inode(path) for path in visible if waiting(path)}
        view = info["view"]
        present = []
        for directory, _, files in os.walk(view):
            present += [entry(os.path.join(directory, name)) for name in files]
        in_copies = [i for i in present if i in copies]
        present = [i for i in present if i not in copies]
        if len(in_copies) != len(set(in_copies)) or (len(in_copies) != len(copied) and not any(waiting(p) for p in copied)):
            raise Failure(f"the view of {app} (location none) holds {len(in_copies)} copies without location, wanted {len(copied)}")
        have, want = Counter(present), Counter(wanted)
        extra = sorted(i for i in have if have[i] > want[i])
        missing = sorted(i for i in want if have[i] < want[i] and i not in optional)
        if extra or missing:
            raise Failure(f"the view of {app} ({status}) holds {len(present)} entries, wanted {len(wanted)}: "
                          f"extra {extra[:5]}, missing {missing[:5]}")


# Run as the owner: the contents of every file in a folder, hashed, a line each; any error fails it
# (os.walk would take a folder it cannot read, or a dead FUSE mount's ENOTCONN, for an empty one).
_HASH_FOLDER = """
import hashlib, os, sys
def fail(error):
    raise error
for directory, _, files in os.walk(sys.argv[1], onerror=fail):
    for name in files:
        with open(os.path.join(directory, name), "rb") as f:
            print(hashlib.sha256(f.read()).hexdigest())
"""


# How many times a Flatpak app's Pictures folder was found right, by how it held its photos ("fuse", "clones", or "empty").
pictures_folder_checks = Counter()


def check_pictures_folder(trial, info, visible, copied, derivative_contents, optional):
    """A Flatpak app's Pictures folder, looked into as the app does: as its owner, with a deadline
    (a FUSE mount refuses root, and a hung one would stop the look). It holds each photo the app may
    see once, byte for byte, and each one with a location as one of the copies without location;
    where views are not clones it is served through FUSE (mounted once, photolibd's view), copying nothing.
    Files of OPTIONAL paths (an unreadable album) may be missing."""
    folder = info["view"]
    mounts = fuse_view_mounts(folder)
    entries = (info.get("entries") or {}).get("form")
    if len(mounts) > 1 or (not trial.clones and (visible or copied) and (entries != "fuse" or len(mounts) != 1)):
        raise Failure(f"the Pictures folder of {info['app']} is not its view through FUSE: entries {entries}, "
                      f"{len(mounts)} photolibd FUSE mounts there")
    try:
        looked = subprocess.run(trial.owner.command([sys.executable, "-c", _HASH_FOLDER, folder]), capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        raise Failure(f"looking into the Pictures folder of {info['app']} ({folder}) as its owner did not end within 60 s")
    if looked.returncode != 0:
        raise Failure(f"the Pictures folder of {info['app']} cannot be looked into as its owner: {looked.stderr.strip()[-500:]}")
    have = Counter(looked.stdout.split())
    want = Counter(content(os.path.join(trial.library, path)) for path in visible)
    may_miss = Counter(content(os.path.join(trial.library, path)) for path in optional if path in visible)
    stripped = sum(count for digest, count in have.items() if digest in derivative_contents and digest not in want)
    extra = have - want
    for digest in derivative_contents:
        extra.pop(digest, None)
    missing = want - have - may_miss
    if extra or missing or (stripped != len(copied) and not optional):
        raise Failure(f"the Pictures folder of {info['app']} holds {sum(have.values())} photos, wanted {len(visible)} and "
                      f"{len(copied)} without location (has {stripped}): {sum(extra.values())} extra, {sum(missing.values())} missing")
    pictures_folder_checks[entries if have else "empty"] += 1


def fuse_view_mounts(path):
    """photolibd's FUSE views mounted at PATH (read from the mount table: the mount itself is never looked at)."""
    found = []
    with open("/proc/self/mountinfo") as table:
        for line in table:
            fields = line.split()
            separator = fields.index("-")
            point = fields[4].encode().decode("unicode_escape")
            if point == path and fields[separator + 1] == "fuse.photolibd-view":
                found.append(fields[separator + 2])
    return found


def content(path):
    """A file's bytes, hashed: what a clone must hold."""
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def integrity(root):
    """SQLite's integrity_check on the database the daemon left in ROOT/state, read-only."""
    database = os.path.join(root, "state", "photolibd.sqlite")
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        return db.execute("PRAGMA integrity_check").fetchone()[0]
