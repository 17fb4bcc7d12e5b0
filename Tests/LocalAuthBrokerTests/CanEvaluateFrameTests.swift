import LocalAuthBroker
import LocalAuthProtocol
import Testing

/// `Broker.canEvaluate(_:from:)`, the answer to a plain canEvaluatePolicy frame (the request
/// path's shortcut), is the route's answer to the same request in every state the availability
/// rows cover: each policy, by raw value and by name, without a context, in a live one, an
/// invalidated one and an unknown one.
@Suite struct CanEvaluateFrameTests {
  @Test(
    "the frame's answer is the route's",
    arguments: [
      "enrolled", "nothing enrolled", "no passcode", "no biometric hardware",
      "unpaired accessory", "paired companion", "per-user owners",
    ])
  func frameAnswersAsTheRoute(_ state: String) async throws {
    let harness = Self.harness(state)
    for uid: UInt32 in [0, 1000] {
      let client = await harness.connect(uid: uid)
      let live = await client.createContext()
      let gone = await client.createContext()
      _ = await client.call(Method.invalidate, ["context": .string(gone)])
      for policy in Policy.allCases {
        for spelling in [String(policy.rawValue), "\"\(policy.name)\""] {
          for context in [nil, live, gone, "ctx-unknown"] {
            let members = context.map { #","context":"\#($0)""# } ?? ""
            let line =
              #"{"jsonrpc":"2.0","id":7,"method":"context.canEvaluatePolicy","params":{"policy":"#
              + spelling + members + "}}"
            let frame = try #require(
              Array(line.utf8).withUnsafeBufferPointer {
                CanEvaluatePolicyFrame($0)
              })
            let shortcut = await harness.broker.canEvaluate(frame, from: client.session)
            let route = await client.call(Method.canEvaluatePolicy, frame.request.params)
            #expect(
              shortcut.map(\.json) == route, "\(state), uid \(uid): \(line)")
          }
        }
      }
    }
  }

  static func harness(_ state: String) -> BrokerHarness {
    switch state {
    case "nothing enrolled": BrokerHarness(enrolled: [])
    case "no passcode": BrokerHarness(passcode: nil)
    case "no biometric hardware": BrokerHarness(faceAvailable: false)
    case "unpaired accessory": BrokerHarness(removable: true, faceAvailable: false)
    case "paired companion": BrokerHarness(enrolled: [], companionPaired: ["watch-1"])
    case "per-user owners": BrokerHarness(owners: .perUser)
    default: BrokerHarness()
    }
  }
}
