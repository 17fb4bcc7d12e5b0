// `import LocalAuthClient` brings what `import LocalAuthentication` brings on Apple platforms:
// Foundation (`Data`, `NSError`, `UUID`, `DispatchQueue`, …) and every LocalAuthentication type.
// The types themselves live in LocalAuthClientCore, which does not link Foundation, so that
// localauthctl stays small; this module adds the NSError-facing parts of Apple's API.

@_exported import Dispatch
@_exported import Foundation
@_exported import LocalAuthClientCore
