import LocalAuthProtocol
import Testing

/// The one reading of a request's `user` param, shared by the broker and the server.
@Suite struct AccountReferenceTests {
  @Test(
    arguments: [
      (JSONValue.int(1000), AccountReference.uid(1000)),
      (.string("1000"), .uid(1000)),
      (.string("alice"), .name("alice")),
      (.string("１２"), .name("１２")),
      (.int(0), .uid(0)),
    ])
  func aUidOrANameIsRead(_ value: JSONValue, _ expected: AccountReference) {
    #expect(AccountReference(userParam: value) == expected)
  }

  @Test(
    arguments: [
      JSONValue.int(-1), .int(Int(UInt32.max)), .string(""),
      .string(String(repeating: "a", count: 257)), .bool(true), .null,
    ])
  func anythingElseNamesNoAccount(_ value: JSONValue) {
    #expect(AccountReference(userParam: value) == nil)
  }

  @Test func onlyTheUserMemberOfParamsIsRead() throws {
    let named = try JSONParser.parse(Array(#"{"policy":"x","user":"bob"}"#.utf8)).objectValue
    #expect(AccountReference(requestedBy: try #require(named)) == .name("bob"))
    let unnamed = try JSONParser.parse(Array(#"{"policy":"x","name":"bob"}"#.utf8)).objectValue
    #expect(AccountReference(requestedBy: try #require(unnamed)) == nil)
  }
}
