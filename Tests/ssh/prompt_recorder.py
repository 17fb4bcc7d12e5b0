#!/usr/bin/env python3
"""A prompt agent for the OpenSSH tests: registers with localauthd for its own uid and appends the
localizedReason of every agent.prompt it is shown to a file, one per line.
Usage: prompt_recorder.py DAEMON_SOCKET OUTPUT_FILE"""
import json
import socket
import sys

connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
connection.connect(sys.argv[1])
requests = [
    {"jsonrpc": "2.0", "id": 1, "method": "session.hello", "params": {"client": {"name": "ssh-test-prompts"}}},
    {"jsonrpc": "2.0", "id": 2, "method": "agent.register", "params": {}},
]
connection.sendall("".join(json.dumps(request) + "\n" for request in requests).encode())
stream = connection.makefile("r", encoding="utf-8")
with open(sys.argv[2], "a", encoding="utf-8") as output:
    for line in stream:
        message = json.loads(line)
        if message.get("id") == 2:
            print("registered" if "result" in message else f"refused: {message}", flush=True)
        if message.get("method") == "agent.prompt":
            output.write(message["params"].get("localizedReason", "") + "\n")
            output.flush()
