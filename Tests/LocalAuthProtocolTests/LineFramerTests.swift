import LocalAuthProtocol
import Testing

/// `LineFramer` checked in the manner of swift-nio's ByteToMessageDecoderVerifier: every way of
/// chunking the same bytes yields the same frames.
@Suite("LineFramer")
struct LineFramerTests {
  /// Feeds the chunks into a fresh framer and collects the frames, with the framer afterwards.
  static func frames(_ chunks: [[UInt8]], limit: Int) -> ([Frame], LineFramer) {
    var framer = LineFramer(limit: limit)
    var frames: [Frame] = []
    for chunk in chunks { framer.feed(chunk) { frames.append($0) } }
    return (frames, framer)
  }

  /// Checks that all-at-once, byte-by-byte and every two-chunk split give `expected`.
  static func verify(
    _ input: [UInt8], limit: Int, expected: [Frame],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(
      frames([input], limit: limit).0 == expected, "all at once", sourceLocation: sourceLocation)
    #expect(
      frames(input.map { [$0] }, limit: limit).0 == expected, "byte by byte",
      sourceLocation: sourceLocation)
    for split in 0...input.count {
      let chunks = [Array(input[..<split]), Array(input[split...])]
      #expect(
        frames(chunks, limit: limit).0 == expected, "split at \(split)",
        sourceLocation: sourceLocation)
    }
  }

  static func line(_ text: String) -> Frame { .line(utf8(text)) }

  @Test("plain lines, empty lines and a trailing partial line")
  func plainLines() {
    let input = utf8("{\"a\":1}\n\nsecond line\n\n\npartial")
    Self.verify(
      input, limit: 64,
      expected: [Self.line("{\"a\":1}"), .line([]), Self.line("second line"), .line([]), .line([])])
    let (_, framer) = Self.frames([input], limit: 64)
    #expect(framer.pending == utf8("partial"))
  }

  @Test("a partial line is completed by a later newline")
  func partialCompleted() {
    var framer = LineFramer(limit: 64)
    var frames: [Frame] = []
    framer.feed(utf8("abc")) { frames.append($0) }
    #expect(frames.isEmpty)
    framer.feed(utf8("def\nghi")) { frames.append($0) }
    #expect(frames == [Self.line("abcdef")])
    #expect(framer.pending == utf8("ghi"))
  }

  @Test("a line over the limit gives exactly one .tooLarge and the next line is intact")
  func tooLarge() {
    let long = String(repeating: "x", count: 25)
    let input = utf8("ok\n\(long)\nafter\n")
    Self.verify(input, limit: 10, expected: [Self.line("ok"), .tooLarge, Self.line("after")])
  }

  @Test("lines of exactly the limit are accepted, one byte more is too large")
  func exactLimit() {
    let input = utf8("1234567890\n12345678901\n1234567890\n")
    Self.verify(
      input, limit: 10, expected: [Self.line("1234567890"), .tooLarge, Self.line("1234567890")])
  }

  @Test("consecutive overlong lines each give one .tooLarge")
  func consecutiveOverlong() {
    let input = utf8("aaaaaaaa\nbbbbbbbbb\n\nc\n")
    Self.verify(input, limit: 4, expected: [.tooLarge, .tooLarge, .line([]), Self.line("c")])
  }

  @Test("an overlong line without its newline yet is reported once and skipped until the newline")
  func overlongUnfinished() {
    var framer = LineFramer(limit: 4)
    var frames: [Frame] = []
    for _ in 0..<100 { framer.feed(utf8("xxxxxxx")) { frames.append($0) } }
    #expect(frames == [.tooLarge])
    #expect(framer.skipping)
    #expect(framer.pending.isEmpty, "skipped bytes are not kept")
    framer.feed(utf8("yy\nnext\n")) { frames.append($0) }
    #expect(frames == [.tooLarge, Self.line("next")])
    #expect(!framer.skipping)
  }

  @Test("a long line split across many chunks arrives whole", arguments: [1, 7, 64, 1000, 4096])
  func longLineManyChunks(_ chunkSize: Int) {
    let text = (0..<20_000).map { String($0 % 10) }.joined()
    let input = utf8(text + "\n" + "tail\n")
    let chunks = stride(from: 0, to: input.count, by: chunkSize).map {
      Array(input[$0..<min($0 + chunkSize, input.count)])
    }
    let (frames, framer) = Self.frames(chunks, limit: 64 * 1024)
    #expect(frames == [.line(utf8(text)), Self.line("tail")])
    #expect(framer.pending.isEmpty)
  }

  @Test("the default limit is 64 KiB")
  func defaultLimit() {
    #expect(LineFramer().limit == 65_536)
    var framer = LineFramer()
    var frames: [Frame] = []
    framer.feed(
      [UInt8](repeating: 0x41, count: 65_536) + [0x0A] + [UInt8](repeating: 0x41, count: 65_537) + [
        0x0A
      ]
    ) {
      frames.append($0)
    }
    #expect(frames == [.line([UInt8](repeating: 0x41, count: 65_536)), .tooLarge])
  }

  @Test("CRLF is left to the decoder, which treats \\r as whitespace")
  func crlf() {
    let input = utf8("{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"id\":1}\r\n\r\n")
    Self.verify(
      input, limit: 100,
      expected: [Self.line("{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"id\":1}\r"), Self.line("\r")])
    let (frames, _) = Self.frames([input], limit: 100)
    guard case .line(let bytes) = frames.first else {
      Issue.record("no line")
      return
    }
    #expect(IncomingFrame.decode(bytes) == .single(.success(RPCRequest(method: "m", id: .int(1)))))
  }

  @Test("binary bytes and multi-byte UTF-8 split mid-character pass through unchanged")
  func binary() {
    let input: [UInt8] = [0xE2, 0x82, 0xAC, 0x00, 0xFF, 0x0A, 0xF0, 0x9F, 0x98, 0x80, 0x0A]
    Self.verify(
      input, limit: 8,
      expected: [.line([0xE2, 0x82, 0xAC, 0x00, 0xFF]), .line([0xF0, 0x9F, 0x98, 0x80])])
  }

  @Test("every two-chunk split of a mixed stream agrees, including around an overlong line")
  func mixedStream() {
    let input = utf8(
      "a\n\nbb\n" + String(repeating: "z", count: 9) + "\nccc\n" + String(repeating: "q", count: 6)
        + "\nd")
    Self.verify(
      input, limit: 5,
      expected: [
        Self.line("a"), .line([]), Self.line("bb"), .tooLarge, Self.line("ccc"), .tooLarge,
      ])
  }

  @Test("three-chunk splits agree as well")
  func threeChunks() {
    let input = utf8("ab\n" + String(repeating: "y", count: 7) + "\ncd\n")
    let expected: [Frame] = [Self.line("ab"), .tooLarge, Self.line("cd")]
    for i in 0...input.count {
      for j in i...input.count {
        let chunks = [Array(input[..<i]), Array(input[i..<j]), Array(input[j...])]
        #expect(Self.frames(chunks, limit: 4).0 == expected, "splits at \(i), \(j)")
      }
    }
  }
}
