/// `session.hello`'s answer: what the daemon says about itself.
public struct HelloResult: MethodResult, Equatable {
  /// The server's name ("localauthd").
  public var server: String
  /// The daemon's version.
  public var version: String
  /// The protocol version it speaks.
  public var protocolVersion: Int
  /// The device's biometry type.
  public var biometryType: BiometryType
  /// The configured sensors' names.
  public var sensors: [String]

  /// An answer.
  public init(
    server: String = "localauthd", version: String, protocolVersion: Int,
    biometryType: BiometryType, sensors: [String]
  ) {
    self.server = server
    self.version = version
    self.protocolVersion = protocolVersion
    self.biometryType = biometryType
    self.sensors = sensors
  }

  /// `{server, version, protocol, biometryType, sensors}`.
  public var json: JSONValue {
    [
      "server": .string(server), "version": .string(version), "protocol": .int(protocolVersion),
      "biometryType": .string(biometryType.rawValue),
      "sensors": .array(sensors.map(JSONValue.string)),
    ]
  }

  /// From the answer; what an older daemon leaves out reads as its default.
  public init?(json: JSONValue) {
    guard let object = json.objectValue else { return nil }
    server = object["server"]?.stringValue ?? "localauthd"
    version = object["version"]?.stringValue ?? ""
    protocolVersion = object["protocol"]?.intValue ?? 1
    biometryType =
      object["biometryType"]?.stringValue.flatMap(BiometryType.init(rawValue:)) ?? .none
    sensors =
      object["sensors"]?.arrayValue?.compactMap {
        $0.stringValue ?? $0.objectValue?["name"]?.stringValue
      } ?? []
  }
}
