import LocalAuthCrypto
import SSHAgent
import Testing

/// The decoder against well-formed, truncated, oversized and garbage agent messages.
@Suite struct AgentCodecTests {
  /// A sign request body for `key` over `data` with `flags`.
  static func signBody(key: [UInt8], data: [UInt8], flags: UInt32) -> [UInt8] {
    var writer = SSHWireWriter()
    writer.byte(AgentMessageType.signRequest)
    writer.string(key)
    writer.string(data)
    writer.uint32(flags)
    return writer.bytes
  }

  @Test func decodesRequestIdentities() throws {
    #expect(try AgentCodec.decode([11]) == .requestIdentities)
  }

  @Test func decodesSignRequests() throws {
    let body = Self.signBody(key: [1, 2, 3], data: Array("hello".utf8), flags: 4)
    #expect(
      try AgentCodec.decode(body)
        == .sign(keyBlob: [1, 2, 3], data: Array("hello".utf8), flags: 4))
  }

  @Test func refusesEveryTruncationOfASignRequest() {
    let body = Self.signBody(key: [1, 2, 3], data: Array("hello".utf8), flags: 0)
    for length in 1..<body.count {
      #expect(throws: SSHWireError.self) { try AgentCodec.decode(Array(body.prefix(length))) }
    }
  }

  @Test func refusesTrailingBytes() {
    #expect(throws: SSHWireError.self) { try AgentCodec.decode([11, 0]) }
    let body = Self.signBody(key: [1], data: [2], flags: 0) + [9]
    #expect(throws: SSHWireError.self) { try AgentCodec.decode(body) }
  }

  @Test func refusesOversizedLengthsBeforeReadingThem() throws {
    // A string claiming 4 GiB in a 9-byte message.
    #expect(throws: SSHWireError.self) {
      try AgentCodec.decode([13, 0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4])
    }
    #expect(throws: SSHWireError.self) {
      try AgentCodec.messageLength(header: [0, 0x04, 0, 1])
    }
    #expect(throws: SSHWireError.self) { try AgentCodec.messageLength(header: [0, 0, 0, 0]) }
    #expect(throws: SSHWireError.self) { try AgentCodec.messageLength(header: [0, 0]) }
    #expect(try AgentCodec.messageLength(header: [0, 0, 0, 5]) == 5)
  }

  @Test func refusesAddRemoveLockAndUnknownMessages() throws {
    for type: UInt8 in [17, 18, 19, 20, 21, 22, 23, 25, 26, 0, 99, 255] {
      #expect(try AgentCodec.decode([type, 1, 2, 3]) == .refused(type))
    }
    #expect(throws: SSHWireError.self) { try AgentCodec.decode([]) }
  }

  @Test func namesOtherExtensions() throws {
    var writer = SSHWireWriter()
    writer.byte(AgentMessageType.extensionRequest)
    writer.string("query")
    #expect(try AgentCodec.decode(writer.bytes) == .otherExtension("query"))
  }

  @Test func decodesSessionBind() throws {
    var writer = SSHWireWriter()
    writer.byte(AgentMessageType.extensionRequest)
    writer.string("session-bind@openssh.com")
    writer.string([1, 1])
    writer.string([2, 2, 2])
    writer.string([3])
    writer.byte(1)
    let expected = SessionBind(
      hostKey: [1, 1], sessionID: [2, 2, 2], signature: [3], isForwarding: true)
    #expect(try AgentCodec.decode(writer.bytes) == .sessionBind(expected))
    #expect(throws: SSHWireError.self) { try AgentCodec.decode(Array(writer.bytes.dropLast())) }
  }

  @Test func survivesGarbage() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<5000 {
      let count = Int.random(in: 0...64, using: &generator)
      var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
      if !bytes.isEmpty { bytes[0] = [11, 13, 27][Int.random(in: 0...2, using: &generator)] }
      _ = try? AgentCodec.decode(bytes)
      _ = SignedData(bytes)
      _ = SSHPublicKey(blob: bytes)
    }
  }

  @Test func framesAnswers() {
    #expect(AgentCodec.failure == [0, 0, 0, 1, 5])
    #expect(AgentCodec.success == [0, 0, 0, 1, 6])
    #expect(AgentCodec.identities([]) == [0, 0, 0, 5, 12, 0, 0, 0, 0])
  }
}
