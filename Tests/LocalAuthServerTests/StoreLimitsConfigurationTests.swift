import LocalAuthBroker
import LocalAuthServer
import Testing

/// The store's `[Broker]` limit keys: defaults, every key read, ranges and the TTL bounds checked.
@Suite struct StoreLimitsConfigurationTests {
  @Test func defaultsAreSane() {
    let limits = DaemonConfiguration().broker.store
    #expect(limits == StoreLimits())
    #expect(limits.maxRequestsPerUID < limits.maxRequests)
    #expect(limits.minHandoffTTLSeconds <= limits.maxHandoffTTLSeconds)
    #expect(limits.maxHandoffsPerUID * limits.maxHandoffPayloadBytes <= 4 << 20)
  }

  @Test func everyKeyIsRead() throws {
    let text = """
      [Broker]
      MaxStoreRequestsPerUID=3
      MaxStoreRequests=30
      MaxHandoffsPerUID=7
      MaxHandoffPayloadBytes=512
      MinHandoffTTLSec=5
      MaxHandoffTTLSec=600
      MaxSavedRightsPerUID=9
      MaxSecretBytes=128
      """
    let limits = try ConfigurationParser.parse(text, file: "t.conf").broker.store
    #expect(limits.maxRequestsPerUID == 3 && limits.maxRequests == 30)
    #expect(limits.maxHandoffsPerUID == 7 && limits.maxHandoffPayloadBytes == 512)
    #expect(limits.minHandoffTTLSeconds == 5 && limits.maxHandoffTTLSeconds == 600)
    #expect(limits.maxSavedRightsPerUID == 9 && limits.maxSecretBytes == 128)
  }

  @Test(arguments: [
    "MaxStoreRequestsPerUID=0", "MaxStoreRequests=-1", "MaxHandoffPayloadBytes=99999999",
    "MinHandoffTTLSec=0", "MaxSecretBytes=x", "MinHandoffTTLSec=60\nMaxHandoffTTLSec=30",
  ])
  func badValuesAreRefused(lines: String) {
    #expect(throws: ConfigurationError.self) {
      _ = try ConfigurationParser.parse("[Broker]\n\(lines)\n", file: "t.conf")
    }
  }
}
