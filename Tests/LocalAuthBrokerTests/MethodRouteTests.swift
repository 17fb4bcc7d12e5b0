import LocalAuthBroker
import LocalAuthProtocol
import Testing

/// The broker answers exactly the methods of `MethodRegistry`: a method added without a request
/// type has no route, and a type added without a route fails here.
@Suite("Method routes")
struct MethodRouteTests {
  @Test("every registered method has a route and every route a registered type")
  func routesMatchTheRegistry() {
    let routed = Set(Broker.routedMethods)
    let registered = Set(MethodRegistry.methodNames)
    #expect(routed.subtracting(registered).isEmpty, "routes without a type")
    #expect(registered.subtracting(routed).isEmpty, "types without a route")
    #expect(Broker.routedMethods.count == MethodRegistry.methodNames.count)
  }

  @Test("every registered method is answered, never with methodNotFound")
  func everyMethodIsAnswered() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    for method in MethodRegistry.methodNames where method != Method.evaluatePolicy {
      let answer = await client.call(method, ["bogus": true])
      #expect(answer?.code != .methodNotFound, "\(method)")
    }
  }
}
