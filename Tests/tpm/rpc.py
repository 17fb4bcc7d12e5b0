#!/usr/bin/env python3
"""One JSON-RPC client for Tests/tpm/tpm.sh: `rpc.py SOCKET METHOD [PARAMS_JSON]` prints the
result (or the error) as one JSON line; `rpc.py SOCKET sign-many NAME COUNT` sends COUNT
sshKey.sign requests one after another and prints how many were signed."""
import base64, json, socket, sys


def call(sock, stream, ident, method, params):
    sock.sendall((json.dumps({"jsonrpc": "2.0", "id": ident, "method": method,
                              "params": params}) + "\n").encode())
    while True:
        message = json.loads(stream.readline())
        if message.get("id") == ident:
            return message


def main():
    path, method = sys.argv[1], sys.argv[2]
    sock = socket.socket(socket.AF_UNIX)
    sock.settimeout(60)
    sock.connect(path)
    stream = sock.makefile("r")
    if method == "sign-many":
        name, count = sys.argv[3], int(sys.argv[4])
        signed = 0
        for i in range(count):
            data = base64.b64encode(b"signature %d" % i).decode()
            answer = call(sock, stream, i + 1, "sshKey.sign", {"name": name, "data": data})
            if "result" in answer:
                signed += 1
            else:
                print(json.dumps(answer), file=sys.stderr)
                break
        print(signed)
        return
    params = json.loads(sys.argv[3]) if len(sys.argv) > 3 else {}
    print(json.dumps(call(sock, stream, 1, method, params)))


main()
