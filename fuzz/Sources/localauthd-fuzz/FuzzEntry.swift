import LocalAuthProtocol

/// The fuzz callback: runs every property over one input. A broken property traps, which
/// libFuzzer reports as a crash and saves the input.
func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  FramingProperties.check(bytes)
  DecodingProperties.check(bytes)
  AgentMessageProperties.check(bytes)
  return 0
}
