#!/usr/bin/env python3
"""Minimal localauthd JSON-RPC client for the systemd harnesses.

Sends each request given on the command line (JSON objects; "jsonrpc" and a
numeric "id" are added when missing) over one connection, one per line, and
prints each matching response as one JSON line, in request order. Server
notifications (no "id") are skipped, or printed to stderr with --verbose.
Exit status: 0 when every request got a response, 3 on timeout or EOF.
With --ready FILE, writes FILE once the requests are sent (for tests that
must act while an evaluation is pending).
"""
import argparse
import json
import socket
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--socket", required=True)
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--ready")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("requests", nargs="+")
    args = parser.parse_args()

    requests = []
    for index, text in enumerate(args.requests, start=1):
        request = json.loads(text)
        request.setdefault("jsonrpc", "2.0")
        request.setdefault("id", index)
        request.setdefault("params", {})
        requests.append(request)

    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.settimeout(args.timeout)
    connection.connect(args.socket)
    connection.sendall(b"".join(json.dumps(r).encode() + b"\n" for r in requests))
    if args.ready:
        open(args.ready, "w").close()

    pending = {r["id"]: None for r in requests}
    buffer = b""
    deadline = time.monotonic() + args.timeout
    while any(v is None for v in pending.values()):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            print("rpc.py: timeout waiting for responses", file=sys.stderr)
            break
        connection.settimeout(remaining)
        try:
            chunk = connection.recv(65536)
        except socket.timeout:
            continue
        if not chunk:
            print("rpc.py: connection closed by the daemon", file=sys.stderr)
            break
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            message = json.loads(line)
            if "id" in message and message["id"] in pending:
                pending[message["id"]] = message
            elif args.verbose:
                print(json.dumps(message), file=sys.stderr)
    for request in requests:
        if pending[request["id"]] is not None:
            print(json.dumps(pending[request["id"]]))
    return 0 if all(v is not None for v in pending.values()) else 3


if __name__ == "__main__":
    sys.exit(main())
