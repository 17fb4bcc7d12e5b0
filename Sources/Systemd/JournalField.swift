/// One structured journal field, `NAME=value`.
///
/// Names follow journald's rules: upper-case letters, digits and `_`, not starting
/// with `_`, at most 64 characters; journald drops fields that break them. Values
/// may contain newlines and any bytes. A plain value, safe to use anywhere.
public struct JournalField: Sendable, Equatable {
  /// The field name, e.g. `REQUEST_ID`.
  public let name: String
  /// The field value.
  public let value: String

  /// Creates the field `name=value`.
  public init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }
}
