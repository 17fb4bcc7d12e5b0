#!/usr/bin/env python3
"""pkexec for a user, answered by that user's own pkttyagent, each on a pseudo-terminal of its own.

polkit 122 (bookworm) refuses the answer for pkexec's built-in text agent ("No session for cookie",
polkit issue 17, fixed in 125): setuid pkexec registers that agent as root, and the helper answers
as the user. A pkttyagent run by the user for the shell that starts pkexec (pkexec's subject is its
parent) is the agent polkit then uses. Runs as root; both terminals are `su -l USER` login shells.

Usage: pkexec-agent.py USER [PASSWORD]
With PASSWORD, types it when the agent asks "Password:". Prints both transcripts and
"pkexec-agent: exit N" (pkexec's exit status; 124 when it did not finish in 30 s)."""
import os
import pty
import re
import select
import sys
import termios
import time

user = sys.argv[1]
password = sys.argv[2] if len(sys.argv) > 2 else None


class Shell:
    """A login shell of the user on a new pseudo-terminal."""

    def __init__(self):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execvp("su", ["su", "-l", user])
        self.output = b""

    def read(self, seconds):
        ready, _, _ = select.select([self.fd], [], [], seconds)
        if not ready:
            return False
        try:
            chunk = os.read(self.fd, 4096)
        except OSError:
            return False
        self.output += chunk
        return bool(chunk)

    def expect(self, pattern, seconds=20, start=0):
        deadline = time.monotonic() + seconds
        while not re.search(pattern, self.output[start:]):
            left = deadline - time.monotonic()
            if left <= 0 or not self.read(left):
                return None
        return re.search(pattern, self.output[start:])

    def type(self, text):
        os.write(self.fd, text.encode())

    def wait_for_echo_off(self, seconds=5):
        """Waits until the program on the terminal turned echo off (a password prompt's
        tcsetattr(TCSAFLUSH) discards what was typed before it). On Linux a pty master's
        tcgetattr reads the terminal's modes."""
        deadline = time.monotonic() + seconds
        while termios.tcgetattr(self.fd)[3] & termios.ECHO and time.monotonic() < deadline:
            time.sleep(0.01)


a, b = Shell(), Shell()
a.expect(rb"\$ $")
b.expect(rb"\$ $")
a.type("echo PID=$$\r")
pid = a.expect(rb"PID=(\d+)\r").group(1).decode()
b.type(f"pkttyagent --process {pid}\r")
time.sleep(1.0)  # pkttyagent registers on the system bus; it prints nothing until asked
mark = len(a.output)
a.type("pkexec /usr/bin/true; echo EXIT=$?\r")
if password is not None and b.expect(rb"Password: "):
    b.wait_for_echo_off()
    b.type(password + "\r")
done = a.expect(rb"EXIT=(\d+)\r", seconds=30, start=mark)
for shell in (a, b):
    b.read(0.2)
    try:
        os.kill(shell.pid, 9)
        os.waitpid(shell.pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass
status = int(done.group(1)) if done else 124
print("--- pkexec's terminal\n" + a.output.decode(errors="replace"))
print("--- pkttyagent's terminal\n" + b.output.decode(errors="replace"))
print(f"pkexec-agent: exit {status}")
sys.exit(status)
