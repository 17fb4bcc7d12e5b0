import Foundation
import LocalAuthBroker
import LocalAuthProtocol
import Synchronization

/// A test client of the broker: records every notification and response it gets and lets a test
/// await them without sleeping. Thread-safe.
public final class RecordingClient: ClientChannel, @unchecked Sendable {
    /// Something the broker sent.
    public enum Message: Sendable, Equatable {
        /// A notification.
        case notification(String, JSONObject)
        /// A deferred response to the request with this tag.
        case response(tag: Int, Result<JSONValue, RPCError>)
    }

    private let messages = Mutex<[Message]>([])
    private let arrival = NSCondition()

    /// An empty recorder.
    public init() {}

    /// Records a notification.
    public func notify(_ method: String, _ params: JSONObject) { append(.notification(method, params)) }

    func append(_ message: Message) {
        messages.withLock { $0.append(message) }
        arrival.lock()
        arrival.broadcast()
        arrival.unlock()
    }

    /// Everything received so far.
    public var received: [Message] { messages.withLock { $0 } }

    /// The responses to the request with this tag (a correct broker sends exactly one).
    public func responses(tag: Int) -> [Result<JSONValue, RPCError>] {
        received.compactMap { if case .response(tag, let r) = $0 { return r } else { return nil } }
    }

    /// The notifications with this method.
    public func notifications(_ method: String) -> [JSONObject] {
        received.compactMap { if case .notification(method, let p) = $0 { return p } else { return nil } }
    }

    /// A responder that records the answer under `tag`.
    public func responder(tag: Int) -> any Responder { TaggedResponder(client: self, tag: tag) }

    /// Waits (on a condition, with a generous timeout scaled by LOCALAUTHD_TEST_TIMEOUT_SCALE) until the
    /// predicate holds over the received messages; returns whether it did.
    @discardableResult
    public func wait(seconds: Double = 10, until predicate: @Sendable ([Message]) -> Bool) -> Bool {
        let scale = Double(ProcessInfo.processInfo.environment["LOCALAUTHD_TEST_TIMEOUT_SCALE"] ?? "") ?? 1
        let deadline = Date().addingTimeInterval(seconds * scale)
        arrival.lock()
        defer { arrival.unlock() }
        while !predicate(received) {
            if !arrival.wait(until: deadline) { return predicate(received) }
        }
        return true
    }

    /// Waits for the response to a tag and returns it.
    public func waitForResponse(tag: Int, seconds: Double = 10) -> Result<JSONValue, RPCError>? {
        wait(seconds: seconds) { messages in
            messages.contains { if case .response(tag, _) = $0 { return true } else { return false } }
        }
        return responses(tag: tag).first
    }
}

private struct TaggedResponder: Responder {
    let client: RecordingClient
    let tag: Int
    func respond(_ result: Result<JSONValue, RPCError>) { client.append(.response(tag: tag, result)) }
}
