import LocalAuthProtocol

/// What a client may put into the daemon's text: names and reasons within `MaxTextBytes` and free
/// of control characters, and app id claims within their bindings (docs/limits-and-threat-model.md).
extension Broker {
  /// A client-supplied text within `MaxTextBytes` and free of control characters; invalid params
  /// naming the field (and the limit) otherwise. Nil stays nil.
  func checkedText(_ value: String?, field: String) throws(RPCError) -> String? {
    guard let value else { return nil }
    if value.utf8.count > configuration.maxTextBytes {
      throw RPCError(
        .invalidParams,
        "Invalid params: '\(field)' must be at most \(configuration.maxTextBytes) bytes (MaxTextBytes).",
        data: [
          "field": .string(field), "limit": "MaxTextBytes", "max": .int(configuration.maxTextBytes),
        ])
    }
    return value
  }

  /// A client-supplied name (client name, app id) within the limits and without control
  /// characters, which could forge log lines or reach a terminal raw.
  func checkedName(_ value: String?, field: String) throws(RPCError) -> String? {
    guard let value = try checkedText(value, field: field) else { return nil }
    guard !PrintableText.containsControlCharacters(value) else {
      throw .invalidParams(field, "must not contain control characters")
    }
    return value
  }
}

extension Broker {
  /// Whether the broker needs peers' executables (app ids are bound to executables).
  public var bindsAppIDs: Bool {
    !configuration.appIDBindings.isEmpty || configuration.requireAppIDBinding
  }

  /// Refuses an app id claim that its binding does not allow: a bound app id only from one of its
  /// executables, and with `RequireAppIDBinding=yes` no unbound app id at all.
  func checkAppIDBinding(_ appID: String, of client: ClientSession) throws(RPCError) {
    guard let allowed = configuration.appIDBindings[appID] else {
      if configuration.requireAppIDBinding {
        throw RPCError(
          .permissionDenied, "App id \(appID) is not bound to any executable.",
          data: ["field": "client.appID"])
      }
      return
    }
    guard let executable = client.peer.executable else {
      throw RPCError(
        .permissionDenied,
        "App id \(appID) is bound, and the daemon cannot read this client's executable (/proc/PID/exe needs CAP_SYS_PTRACE for other users' processes).",
        data: ["field": "client.appID"])
    }
    guard allowed.contains(executable) else {
      throw RPCError(
        .permissionDenied, "App id \(appID) may be claimed only by its bound executables.",
        data: ["field": "client.appID"])
    }
  }
}
