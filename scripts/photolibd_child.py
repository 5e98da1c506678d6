"""The one way the scripts start a child they signal or wait for: pinned by a pidfd at spawn.

A signal goes through the pidfd (signal.pidfd_send_signal), so once the child has ended it
reaches no one, never a process that took its number; every wait has a deadline, and says
what never ended when it passes.
"""
import os
import select
import signal
import subprocess


class ChildTimeout(Exception):
    """A child did not end within its deadline."""


class Child:
    """subprocess.Popen's child, pinned by a pidfd from its start (nothing but this object reaps it)."""

    def __init__(self, arguments, name=None, **popen):
        self.proc = subprocess.Popen(arguments, **popen)
        # Unreaped, the child keeps its number: this pins exactly it.
        self.pidfd = os.pidfd_open(self.proc.pid)
        self.name = name or os.path.basename(arguments[0])

    @property
    def pid(self):
        """Its number, for /proc and messages; signal it through signal()."""
        return self.proc.pid

    def running(self):
        return self.proc.poll() is None

    def signal(self, number):
        """Sends NUMBER to the child; False once it has ended (the signal then reached no one)."""
        try:
            signal.pidfd_send_signal(self.pidfd, number)
            return True
        except ProcessLookupError:
            return False

    def wait(self, timeout):
        """Its exit status once it ends within TIMEOUT seconds; raises ChildTimeout naming it otherwise."""
        if self.proc.returncode is None:
            poller = select.poll()
            poller.register(self.pidfd, select.POLLIN)  # readable once it has exited
            if not poller.poll(int(timeout * 1000)):
                raise ChildTimeout(f"{self.name} (pid {self.pid}) did not end within {timeout:g} s")
        return self.proc.wait(timeout=5)

    def stop(self, grace=10):
        """SIGTERM, then SIGKILL after GRACE seconds; its exit status. Never waits past GRACE + 30 s."""
        self.signal(signal.SIGTERM)
        try:
            return self.wait(grace)
        except ChildTimeout:
            self.signal(signal.SIGKILL)
            return self.wait(30)

    def close(self):
        """Kills the child if it still runs, reaps it and lets go of its pidfd."""
        if self.running():
            self.stop(grace=10)
        os.close(self.pidfd)
