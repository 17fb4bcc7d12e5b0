import ExternalDrivers
import LocalAuthBroker
import LocalAuthConcurrency
import Sensors

extension SensorRegistry {
  /// The drivers a configuration describes, built and not started (`start()` runs them; a reload
  /// offers them to the running ones, `reloaded(_:)`): simulated ones, out-of-process drivers
  /// (`Kind=exec`), fprintd (`Kind=fprintd`, on `bus`; simulated without one) and the login password
  /// (`Kind=password`, through localauthd-password-helper).
  public static func configured(
    from configuration: DaemonConfiguration, time: any TimeSource, log: any EvaluationLog,
    bus: (any BusLoop)? = nil
  ) -> SensorRegistry {
    let simulated = SensorRegistry.simulated(from: configuration, time: time)
    return SensorRegistry(
      zip(configuration.sensors, simulated.drivers).map { sensor, driver in
        switch sensor.driver {
        case .simulated:
          return driver
        case .fprintd:
          guard let bus else { return driver }
          return FprintdSensor(name: sensor.name, loop: bus, log: { line in log.notice(line) })
        case .password:
          return PasswordSensor(
            name: sensor.name, checker: HelperPasswordChecker(socketPath: sensor.passwordSocket))
        case .exec:
          return ExecSensor(
            name: sensor.name, kind: sensor.kind, settings: sensor.exec,
            log: { line in log.notice(line) })
        }
      })
  }
}
