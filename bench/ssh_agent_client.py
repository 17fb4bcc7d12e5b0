#!/usr/bin/env python3
"""Times SSH agent signatures: REQUEST_IDENTITIES once, then COUNT SIGN_REQUESTs with the first key
over one connection, each waiting for its answer. Prints one JSON object: the median, p90 and p99
latency in microseconds and the signatures per second.
Usage: ssh_agent_client.py SOCKET COUNT"""
import json
import os
import socket
import struct
import sys
import time


def frame(body):
    return struct.pack(">I", len(body)) + body


def string(data):
    return struct.pack(">I", len(data)) + data


def read_message(connection):
    header = connection.recv(4, socket.MSG_WAITALL)
    (length,) = struct.unpack(">I", header)
    body = b""
    while len(body) < length:
        body += connection.recv(length - len(body))
    return body


connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
connection.connect(sys.argv[1])
count = int(sys.argv[2])
connection.sendall(frame(b"\x0b"))
answer = read_message(connection)
assert answer[0] == 12 and struct.unpack(">I", answer[1:5])[0] >= 1, "no identities"
(blob_length,) = struct.unpack(">I", answer[5:9])
blob = answer[9 : 9 + blob_length]
# An SSHSIG-shaped payload, as git and ssh-keygen -Y sign send.
payload = b"SSHSIG" + string(b"git") + string(b"") + string(b"sha512") + string(os.urandom(64))
request = frame(b"\x0d" + string(blob) + string(payload) + struct.pack(">I", 0))
latencies = []
for _ in range(count):
    started = time.perf_counter_ns()
    connection.sendall(request)
    answer = read_message(connection)
    latencies.append((time.perf_counter_ns() - started) / 1000)
    assert answer[0] == 14, f"signature refused (message {answer[0]})"
latencies.sort()
total = sum(latencies)
print(json.dumps({
    "median_us": round(latencies[len(latencies) // 2], 1),
    "p90_us": round(latencies[int(len(latencies) * 0.9)], 1),
    "p99_us": round(latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))], 1),
    "per_second": round(count / (total / 1e6), 1),
}))
