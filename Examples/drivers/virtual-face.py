#!/usr/bin/env python3
"""A localauthd out-of-process driver (docs/driver-protocol.md, version 1) for a virtual camera.

Written from the protocol document alone. Stands in for a face-recognition script: instead of a
camera, "faces" arrive as lines on a control FIFO, the way libfprint's virtual device takes
`SCAN <id>`:

    SHOW <identity>   a face with that identity looks at the camera
    BLUR              a face is seen but cannot be judged (RETRY faceNotCentered)
    LEAVE             the person presses cancel at the sensor

Presentations wait in order until a capture takes them. Enrollments are kept per uid in a JSON
file. Usage: virtual-face.py --control FIFO --state FILE.json
"""
import argparse
import json
import os
import re
import select
import sys

TOKEN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$")


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class Driver:
    def __init__(self, state_path):
        self.state_path = state_path
        self.enrolled = {}
        if os.path.exists(state_path):
            with open(state_path) as f:
                self.enrolled = {int(uid): ids for uid, ids in json.load(f).items()}
        self.capture = None  # (id, uid) of the capture waiting for a face
        self.presentations = []

    def save(self):
        with open(self.state_path + ".tmp", "w") as f:
            json.dump({str(uid): ids for uid, ids in self.enrolled.items()}, f)
        os.replace(self.state_path + ".tmp", self.state_path)

    def announce(self, uid):
        send(" ".join(["ENROLLED", str(uid)] + self.enrolled.get(uid, [])))

    def from_daemon(self, line):
        fields = line.split(" ")
        verb, args = fields[0], fields[1:]
        if verb == "CAPTURE" and len(args) == 4:
            self.capture = (args[0], int(args[1]))
        elif verb == "CANCEL" and len(args) == 1:
            if self.capture and self.capture[0] == args[0]:
                self.capture = None
        elif verb == "PING" and len(args) == 1:
            send("PONG " + args[0])
        elif verb in ("ENROLL", "UNENROLL") and len(args) == 2 and TOKEN.match(args[1]):
            uid, identity = int(args[0]), args[1]
            ids = [i for i in self.enrolled.get(uid, []) if i != identity]
            if verb == "ENROLL":
                ids.append(identity)
            self.enrolled[uid] = ids
            self.save()
            self.announce(uid)
        else:
            sys.stderr.write("ignoring an unknown command\n")
        self.answer()

    def from_camera(self, line):
        fields = line.split(" ")
        if fields[0] == "SHOW" and len(fields) == 2 and TOKEN.match(fields[1]):
            self.presentations.append(("SHOW", fields[1]))
        elif fields[0] in ("BLUR", "LEAVE") and len(fields) == 1:
            self.presentations.append((fields[0], None))
        self.answer()

    def answer(self):
        if not self.capture or not self.presentations:
            return
        capture_id, uid = self.capture
        kind, identity = self.presentations.pop(0)
        self.capture = None
        if kind == "BLUR":
            send("RETRY %s faceNotCentered" % capture_id)
        elif kind == "LEAVE":
            send("CANCEL %s" % capture_id)
        elif identity in self.enrolled.get(uid, []):
            send("MATCH %s %s" % (capture_id, identity))
        else:
            send("NOMATCH %s" % capture_id)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--control", required=True)
    parser.add_argument("--state", required=True)
    options = parser.parse_args()
    if not os.path.exists(options.control):
        os.mkfifo(options.control, 0o600)
    # Opened read-write so the FIFO never reports end-of-file between writers.
    camera = os.open(options.control, os.O_RDWR | os.O_NONBLOCK)
    driver = Driver(options.state)
    send("HELLO 1")
    for uid in driver.enrolled:
        driver.announce(uid)
    send("READY")
    buffers = {0: b"", camera: b""}
    while True:
        readable, _, _ = select.select([0, camera], [], [])
        for fd in readable:
            chunk = os.read(fd, 4096)
            if fd == 0 and not chunk:
                return  # the daemon closed our stdin: it stopped
            buffers[fd] += chunk
            while b"\n" in buffers[fd]:
                raw, buffers[fd] = buffers[fd].split(b"\n", 1)
                line = raw.decode("utf-8", "replace")
                if fd == 0:
                    driver.from_daemon(line)
                else:
                    driver.from_camera(line)


if __name__ == "__main__":
    main()
