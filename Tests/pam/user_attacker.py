#!/usr/bin/env python3
"""A process of an ordinary user, for the hostile PAM tests (issue 18): it runs as that user (the tests
start it with setpriv) and speaks the protocol on the daemon's socket, as malware of the user could.

Usage: user_attacker.py SOCKET MODE [DIGITS]
Modes:
  passcode-agent DIGITS  sets the user's first passcode (no proof is asked when none is set), registers
                         a prompt agent and answers every agent.passcode with DIGITS;
  silent-agent           registers a prompt agent that never answers;
  park DIGITS            sets the passcode, registers a silent agent and starts an app evaluation of
                         deviceOwnerAuthentication that parks at the passcode stage;
  app                    registers a silent agent and starts an app evaluation of
                         deviceOwnerAuthenticationWithBiometrics (the user's own app prompt, waiting
                         for the face).
Prints one line per event ("ready", "prompt <json>", "passcode <requestID>", "parked", "ended <name>"),
flushed, until killed."""
import json
import socket
import sys
import threading

path, mode = sys.argv[1], sys.argv[2]
digits = sys.argv[3] if len(sys.argv) > 3 else None
lock = threading.Lock()


def say(text):
    with lock:
        print(text, flush=True)


class Connection:
    def __init__(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buffer = b""
        self.next_id = 0

    def send(self, method, params):
        self.next_id += 1
        self.sock.sendall(json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method,
                                      "params": params}).encode() + b"\n")
        return self.next_id

    def read(self):
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise SystemExit(0)
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def call(self, method, params):
        wanted = self.send(method, params)
        while True:
            message = self.read()
            if message.get("id") == wanted:
                return message


def agent_loop(agent, answer):
    while True:
        message = agent.read()
        method, params = message.get("method"), message.get("params", {})
        if method == "agent.prompt":
            say("prompt " + json.dumps(params))
        # The prompt asks for the passcode at once (nothing biometric to try), or after a fallback.
        if (method == "agent.prompt" and params.get("sensor") == "passcode") or method == "agent.passcode":
            say("passcode " + params.get("requestID", ""))
            if answer:
                agent.send("agent.respond", {"requestID": params["requestID"], "action": "passcode",
                                             "passcode": answer})
            elif mode == "park":
                say("parked")


if digits:
    answer = Connection().call("sensors.setPasscode", {"passcode": digits})
    say("setPasscode " + json.dumps(answer.get("error", {}).get("data", {}).get("name", "ok")))
agent = Connection()
registered = agent.call("agent.register", {})
if "error" in registered:
    say("agent refused " + json.dumps(registered["error"]))
    sys.exit(1)
threading.Thread(target=agent_loop, args=(agent, digits if mode == "passcode-agent" else None), daemon=True).start()
say("ready")
if mode in ("park", "app"):
    client = Connection()
    client.call("session.hello", {"client": {"name": mode + "-app", "interactive": True}, "protocol": 1})
    policy = "deviceOwnerAuthentication" if mode == "park" else "deviceOwnerAuthenticationWithBiometrics"
    answer = client.call("context.evaluatePolicy", {"policy": policy, "localizedReason": "keep the prompt"})
    say("ended " + (answer.get("error", {}).get("data", {}).get("name", "?") if "error" in answer else "success"))
threading.Event().wait()
