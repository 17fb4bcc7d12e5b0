import LocalAuthProtocol

/// One evaluatePolicy request: queued, then running, then finished exactly once. Broker-isolated.
final class Evaluation {
    enum Phase { case queued, running, finished }

    let requestID: String
    let client: ClientSession
    let context: AuthContext
    let policy: Policy
    let reason: String
    let rpcID: RequestID?
    let responder: any Responder
    var phase: Phase = .queued
    var task: Task<Void, Never>?
    var timeout: Task<Void, Never>?
    /// The sensor in use, for logs and the success result.
    var sensor: String?
    /// Turns the outcome into the answer of the method that started it (right.authorize answers `{}`).
    var transform: ((Result<JSONValue, RPCError>) -> Result<JSONValue, RPCError>)?

    init(
        requestID: String, client: ClientSession, context: AuthContext, policy: Policy, reason: String,
        rpcID: RequestID?, responder: any Responder
    ) {
        self.requestID = requestID
        self.client = client
        self.context = context
        self.policy = policy
        self.reason = reason
        self.rpcID = rpcID
        self.responder = responder
    }
}

/// A random RFC 4122 version-4 UUID string, without Foundation.
func makeUUID() -> String {
    var generator = SystemRandomNumberGenerator()
    var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
    bytes[6] = (bytes[6] & 0x0F) | 0x40
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    let hex = Array("0123456789ABCDEF".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(36)
    for (index, byte) in bytes.enumerated() {
        if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
        text.append(hex[Int(byte >> 4)])
        text.append(hex[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
}
