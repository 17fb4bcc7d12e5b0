#!/usr/bin/env python3
"""One JSON-RPC client for Tests/tpm/tpm.sh: `rpc.py SOCKET METHOD [PARAMS_JSON]` prints the
result (or the error) as one JSON line; `rpc.py SOCKET sign-many NAME COUNT` sends COUNT
sshKey.sign requests one after another and prints how many were signed.

Persisted rights (as app org.example.tpm-test; each authorizes once, so the simulated face must
match once first): `rpc.py SOCKET right-save ID` makes a right, authorizes and saves it and prints
its keyStore; `rpc.py SOCKET right-use ID` loads it, authorizes it, and prints "ok KEYSTORE" when
key.sign verifies with its public key, key.decrypt opens ECIES ciphertext made here for that key
(Apple's eciesEncryptionStandardVariableIVX963SHA256AESGCM) and key.exchangeKeys agrees with the
ECDH computed here; else the first failure. Needs python3-cryptography."""
import base64, json, socket, sys


def call(sock, stream, ident, method, params):
    sock.sendall((json.dumps({"jsonrpc": "2.0", "id": ident, "method": method,
                              "params": params}) + "\n").encode())
    while True:
        message = json.loads(stream.readline())
        if message.get("id") == ident:
            return message


def result(sock, stream, ident, method, params):
    answer = call(sock, stream, ident, method, params)
    if "result" not in answer:
        print(json.dumps(answer))
        sys.exit(1)
    return answer["result"]


def b64(data):
    return base64.b64encode(data).decode()


def right_use(sock, stream, identifier):
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    from cryptography.hazmat.primitives.kdf.x963kdf import X963KDF
    handle = result(sock, stream, 2, "rightStore.right", {"identifier": identifier})["right"]
    result(sock, stream, 3, "right.authorize", {"right": handle, "localizedReason": "use the key"})
    public = result(sock, stream, 4, "key.publicKey", {"right": handle})
    point = base64.b64decode(public["x963"])
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    message = b"pay Bob 10"
    signature = base64.b64decode(
        result(sock, stream, 5, "key.sign", {"right": handle, "data": b64(message)})["signature"])
    key.verify(signature, message, ec.ECDSA(hashes.SHA256()))
    ephemeral = ec.generate_private_key(ec.SECP256R1())
    ephemeral_point = ephemeral.public_key().public_bytes(
        Encoding.X962, PublicFormat.UncompressedPoint)
    shared = ephemeral.exchange(ec.ECDH(), key)
    material = X963KDF(algorithm=hashes.SHA256(), length=32, sharedinfo=ephemeral_point).derive(shared)
    sealed = AESGCM(material[:16]).encrypt(material[16:], b"for the wallet only", None)
    plaintext = base64.b64decode(result(sock, stream, 6, "key.decrypt", {
        "right": handle, "data": b64(ephemeral_point + sealed)})["plaintext"])
    if plaintext != b"for the wallet only":
        print("key.decrypt answered other bytes")
        sys.exit(1)
    exchanged = base64.b64decode(result(sock, stream, 7, "key.exchangeKeys", {
        "right": handle, "publicKey": b64(ephemeral_point)})["sharedSecret"])
    if exchanged != shared:
        print("key.exchangeKeys answered another secret")
        sys.exit(1)
    print("ok", public.get("keyStore"))


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
    if method in ("right-save", "right-use"):
        result(sock, stream, 1, "session.hello", {
            "client": {"name": "tpm-test", "appID": "org.example.tpm-test"}, "protocol": 1})
        if method == "right-use":
            right_use(sock, stream, sys.argv[3])
            return
        handle = result(sock, stream, 2, "right.create", {"requirement": "default"})["right"]
        result(sock, stream, 3, "right.authorize", {"right": handle, "localizedReason": "save"})
        saved = result(sock, stream, 4, "rightStore.saveRight", {
            "right": handle, "identifier": sys.argv[3], "secret": b64(b"pin")})["right"]
        print(result(sock, stream, 5, "key.publicKey", {"right": saved}).get("keyStore"))
        return
    params = json.loads(sys.argv[3]) if len(sys.argv) > 3 else {}
    print(json.dumps(call(sock, stream, 1, method, params)))


main()
