import ExternalDrivers
import Glibc
import LocalAuthBroker
import Sensors

/// One `[Sensor.NAME]` section.
public struct SensorConfiguration: Sendable, Equatable {
  /// The section's NAME, the sensor's name on the wire.
  public var name: String
  /// Kind=
  public var kind: SensorKind
  /// Available= (default yes).
  public var available = true
  /// Removable= (default no).
  public var removable = false
  /// Enrolled= identities (space separated, repeatable).
  public var enrolled: [String] = []
  /// Script= lines (repeatable), parsed.
  public var script: [ScriptCommand] = []
  /// Default= MATCH | NOMATCH | WAIT (default WAIT).
  public var defaultBehavior: ScriptCommand.DefaultBehavior = .wait
  /// DefaultDelayMs= how long the default outcome takes.
  public var defaultDelayMilliseconds = 0
  /// Passcode= (passcode sensors only): the device passcode at start.
  public var passcode: String?
  /// Which driver serves the sensor: Kind=exec, Kind=fprintd or Kind=password choose a real one (default simulated).
  public var driver: SensorDriverChoice = .simulated
  /// Exec=, StartTimeoutMs=, PingIntervalMs=, HangTimeoutMs=, RestartDelayMs=, RestartMaxDelayMs= (Kind=exec).
  public var exec = ExecDriverSettings(command: [])
  /// Socket= (Kind=password): the password helper's socket.
  public var passwordSocket = SensorConfiguration.defaultPasswordSocket
  /// The password helper's socket under systemd (localauthd-password.socket).
  public static let defaultPasswordSocket = "/run/localauthd/password.sock"

  /// A sensor section with defaults.
  public init(name: String, kind: SensorKind) {
    self.name = name
    self.kind = kind
  }
}

/// The driver behind a sensor section.
public enum SensorDriverChoice: String, Sendable, Equatable {
  /// The scripted simulation (docs/protocol.md, "The script language").
  case simulated
  /// An out-of-process driver speaking docs/driver-protocol.md.
  case exec
  /// fprintd over the system bus (a touchID sensor).
  case fprintd
  /// The owner's login password through localauthd-password-helper (a passcode sensor).
  case password
}

/// The `[Keys]` section (docs/configuration.md, "Keys"): whether keys live in the TPM.
public struct KeysConfiguration: Sendable, Equatable {
  /// Store=: where the device key is sealed and new keys are made.
  public enum Store: String, Sendable, Equatable {
    /// The TPM when one answers at the TCTI at start, else the file key (logged).
    case auto
    /// The TPM; none answering is a start-up error.
    case tpm
    /// The device key file, as before the TPM.
    case file
  }

  /// Store= (default auto).
  public var store = Store.auto
  /// TCTI= tss2's TCTI string of the TPM (default the kernel's resource manager).
  public var tcti = "device:/dev/tpmrm0"

  /// The defaults.
  public init() {}
}

/// Everything `/etc/localauthd/localauthd.conf` says, with a built-in default for every key.
public struct DaemonConfiguration: Sendable, Equatable {
  /// The `[Broker]` policy settings.
  public var broker = BrokerConfiguration()
  /// Connection limits (FrameLimit=, OutputHighWater=, OutputLimit=).
  public var limits = ConnectionLimits()
  /// AdminGroup= the group whose members may administer sensors (default "localauth"; missing → root only).
  public var adminGroup: String? = "localauth"
  /// SetupOwner= the account (name or uid) that `Enrolled=`, `Passcode=` and script ENROLL belong to, and the
  /// one owner in device mode; nil: the account the daemon runs as.
  public var setupOwner: String?
  /// ExitOnIdleSec= when socket-activated and no client is connected (0: never).
  public var exitOnIdleSeconds = 0
  /// SSHKnownHostsFile=: the system's known hosts, where an SSH sign-in prompt's verified host
  /// names come from (only while root owns it and only root may write it).
  public var sshKnownHostsFile = "/etc/ssh/ssh_known_hosts"
  /// The `[Keys]` section: where keys are made and kept.
  public var keys = KeysConfiguration()
  /// `[Login]` PasswordSocket=: localauthd-password-helper's socket, which checks a login password
  /// before it is kept (the `[Login]` policy itself is `broker.login`).
  public var loginPasswordSocket = SensorConfiguration.defaultPasswordSocket
  /// The sensors in order; the defaults are `face` (faceID) and `passcode`.
  public var sensors: [SensorConfiguration] = [
    SensorConfiguration(name: "face", kind: .faceID),
    SensorConfiguration(name: "passcode", kind: .passcode),
  ]

  /// The defaults.
  public init() {}

  /// The demo set-up of `make run`: an enrolled face that matches after about a second, passcode 1234.
  public static func demo() -> DaemonConfiguration {
    var configuration = DaemonConfiguration()
    var face = SensorConfiguration(name: "face", kind: .faceID)
    face.enrolled = ["demo-user"]
    face.defaultBehavior = .match
    face.defaultDelayMilliseconds = 1000
    var passcode = SensorConfiguration(name: "passcode", kind: .passcode)
    passcode.passcode = demoPasscode
    configuration.sensors = [face, passcode]
    return configuration
  }

  /// The passcode of demo mode, printed at start.
  public static let demoPasscode = "1234"

  /// The device passcode configured on the passcode sensor, if any.
  public var passcode: String? {
    sensors.first { $0.kind == .passcode && $0.passcode != nil }?.passcode
  }
}

extension DaemonConfiguration {
  /// The uid of `SetupOwner=`: a uid, or an account name looked up with getpwnam; the daemon's own uid when
  /// unset or unknown.
  public var setupOwnerUID: UInt32 {
    guard let name = setupOwner else { return getuid() }
    if let uid = UInt32(name) { return uid }
    return getpwnam(name).map { $0.pointee.pw_uid } ?? getuid()
  }
}
