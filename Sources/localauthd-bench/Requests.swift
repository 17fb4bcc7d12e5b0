/// Hand-written request lines (with their newline), so the generator spends nothing on encoding.
enum Requests {
  /// `context.canEvaluatePolicy {policy: 1}`: cheap, answered at once.
  static let canEvaluate = line(
    #"{"jsonrpc":"2.0","id":1,"method":"context.canEvaluatePolicy","params":{"policy":1}}"#)
  /// `context.evaluatePolicy {policy: 1}`: goes through the serialized queue.
  static let evaluate = line(
    #"{"jsonrpc":"2.0","id":2,"method":"context.evaluatePolicy","params":{"policy":1,"localizedReason":"bench"}}"#
  )
  /// `broker.status`.
  static let status = line(#"{"jsonrpc":"2.0","id":3,"method":"broker.status"}"#)

  /// The mixed workload of the RSS-growth run: hot methods, errors of each kind, and a batch.
  static let mixed: [[UInt8]] = [
    canEvaluate,
    evaluate,
    canEvaluate,
    status,
    line(#"{"jsonrpc":"2.0","id":"d","method":"context.domainState","params":{}}"#),
    line(
      #"{"jsonrpc":"2.0","id":5,"method":"session.hello","params":{"client":{"name":"bench"},"protocol":1}}"#
    ),
    canEvaluate,
    line(#"{"jsonrpc":"2.0","id":6,"method":"no.such.method"}"#),
    line(
      #"{"jsonrpc":"2.0","id":7,"method":"context.canEvaluatePolicy","params":{"policy":2,"context":"ctx-nope"}}"#
    ),
    line(#"{"jsonrpc":"2.0","id":8,"method":"evaluation.cancel","params":{"requestID":"none"}}"#),
    line(
      #"{"jsonrpc":"2.0","id":9,"method":"context.evaluatePolicy","params":{"policy":1,"localizedReason":""}}"#
    ),
    line(#"{"jsonrpc":"2.0","id":10,"#),
    line(
      #"[{"jsonrpc":"2.0","id":11,"method":"broker.status"},{"jsonrpc":"2.0","id":12,"method":"sensors.list"}]"#
    ),
  ]

  private static func line(_ text: String) -> [UInt8] { Array(text.utf8) + [0x0A] }
}
