#!/usr/bin/env python3
"""A hostile stand-in on the module's socket, for the robustness tests only: it answers session.hello and
context.canEvaluatePolicy (id 2: yes, a fingerprint sensor; except in the silent and close modes), then
says the sensor listens (evaluation.armed; except in unarmed mode, where it never does), then
behaves badly in one way about the evaluation (id 3). The module must neither crash
nor believe it.

Usage: hostile_daemon.py SOCKET MODE   (prints "ready" once listening; serves until killed)
Modes: huge-line, deep-nesting, garbage, wrong-id, escapes, silent, success, close, unarmed."""
import os
import socket
import sys
import threading

path, mode = sys.argv[1], sys.argv[2]


def reply(conn):
    conn.settimeout(30)
    data = b""
    try:
        while data.count(b"\n") < 3:
            chunk = conn.recv(4096)
            if not chunk:
                return
            data += chunk
        started = b'{"jsonrpc":"2.0","method":"evaluation.started","params":{"requestID":"HOSTILE-1","id":3}}\n'
        if mode not in ("silent", "close"):
            conn.sendall(b'{"jsonrpc":"2.0","id":1,"result":{"server":"localauthd","biometryType":"touchID"}}\n')
            conn.sendall(b'{"jsonrpc":"2.0","id":2,"result":{"canEvaluate":true,"biometryType":"touchID"}}\n')
        if mode not in ("silent", "close", "unarmed"):
            conn.sendall(b'{"jsonrpc":"2.0","method":"evaluation.armed","params":{"requestID":"HOSTILE-1",'
                         b'"sensor":"finger","attempt":1}}\n')
        if mode == "huge-line":
            conn.sendall(b'{"jsonrpc":"2.0","method":"evaluation.feedback","params":{"x":"' + b"A" * 200000)
            conn.sendall(b'"}}\n' + started)
            conn.sendall(b"B" * 100000)
        elif mode == "deep-nesting":
            conn.sendall(b"[" * 100000 + b"\n" + b'{"id":' * 5000 + b"\n" + started)
        elif mode == "garbage":
            conn.sendall(bytes(range(256)) * 40 + b"\n\xff\xfe{\"id\":3,\"result\n{\"id\":3,\"result\":}\n")
            conn.sendall(b'{"id":3,"result":{"a":1e999999999999,"b":-0.0e-5,"c":"\\ud800"},"id":3,}\n')
        elif mode == "wrong-id":
            conn.sendall(b'{"jsonrpc":"2.0","id":99,"result":{"requestID":"X"}}\n')
            conn.sendall(b'{"jsonrpc":"2.0","id":"3","result":{"requestID":"X"}}\n')
            conn.sendall(b'{"jsonrpc":"2.0","id":3.5,"result":{"requestID":"X"}}\n')
            conn.sendall(b'{"jsonrpc":"2.0","id":3,"result":"yes"}\n')
        elif mode == "escapes":
            evil = b'\\u001b]0;pwned\\u0007\\u001b[31m%s%n%x\\u00e9'
            conn.sendall(started)
            conn.sendall(b'{"jsonrpc":"2.0","method":"evaluation.feedback","params":{"requestID":"HOSTILE-1","feedback":"awaitingChoice","offer":"fallback","attempt":2}}\n')
            conn.sendall(b'{"jsonrpc":"2.0","method":"evaluation.feedback","params":{"requestID":"HOSTILE-1","feedback":"' + evil + b'","attempt":1}}\n')
            conn.sendall(b'{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"x","data":{"name":"' + evil + b'","requestID":"' + evil + b'"}}}\n')
        elif mode == "success":
            conn.sendall(started + b'{"jsonrpc":"2.0","id":3,"result":{"requestID":"HOSTILE-1","policy":1,"sensor":"face","reused":false}}\n')
        elif mode == "close":
            return
        elif mode == "unarmed":
            # Another requester's evaluation holds the sensor: this one is queued and never armed.
            conn.sendall(b'{"jsonrpc":"2.0","method":"evaluation.queued","params":{"requestID":"HOSTILE-1",'
                         b'"id":3,"position":1}}\n')
        # silent, and every mode after its bytes: hold the connection until the module goes.
        while conn.recv(4096):
            pass
    except OSError:
        pass
    finally:
        conn.close()


server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
if os.path.exists(path):
    os.unlink(path)
server.bind(path)
os.chmod(path, 0o666)
server.listen(16)
print("ready", flush=True)
while True:
    connection, _ = server.accept()
    threading.Thread(target=reply, args=(connection,), daemon=True).start()
