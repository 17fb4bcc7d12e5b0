import LocalAuthProtocol

/// Host names for a host key from an OpenSSH known_hosts file. Only plain names can be read back;
/// hashed entries (`|1|…`, HashKnownHosts) hide theirs, so such a host is named by fingerprint.
public enum KnownHosts {
  /// The most of a known_hosts file read, in bytes.
  public static let maxFileBytes = 4 * 1024 * 1024

  /// The first readable host name of the first line of `text` whose key is `hostKeyBlob`, or nil.
  /// Names are returned only when printable (a hostile file cannot put control characters in a prompt).
  public static func hostName(for hostKeyBlob: [UInt8], in text: String) -> String? {
    for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
      var fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
      guard let first = fields.first, !first.hasPrefix("#") else { continue }
      if first.hasPrefix("@") { continue }  // @cert-authority, @revoked: not a host's own key
      guard fields.count >= 3, Base64.decode(fields[2]) == hostKeyBlob else { continue }
      fields = fields[0].split(separator: ",").map(String.init)
      let name = fields.first { !$0.hasPrefix("|") && !$0.hasPrefix("!") && !$0.isEmpty }
      if let name, name.utf8.count <= 255, !PrintableText.containsControlCharacters(name) {
        return name
      }
    }
    return nil
  }
}
