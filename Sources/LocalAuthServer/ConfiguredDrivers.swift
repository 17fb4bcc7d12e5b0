import ExternalDrivers
import LocalAuthBroker
import Sensors

extension SensorRegistry {
  /// The drivers a configuration describes: simulated ones, out-of-process drivers (`Kind=exec`),
  /// which start at once, and fprintd (`Kind=fprintd`, on `bus`; simulated without one). A sensor whose section did not change keeps its running driver.
  public static func configured(
    from configuration: DaemonConfiguration, time: any TimeSource, log: any EvaluationLog,
    keeping previous: (configuration: DaemonConfiguration, registry: SensorRegistry)? = nil,
    bus: (any BusLoop)? = nil
  ) -> SensorRegistry {
    let simulated = SensorRegistry.simulated(from: configuration, time: time, keeping: previous)
    return SensorRegistry(
      zip(configuration.sensors, simulated.drivers).map { sensor, driver in
        guard sensor.driver != .simulated else { return driver }
        if let previous, previous.configuration.sensors.contains(sensor),
          let running = previous.registry.driver(named: sensor.name),
          running is ExecSensor || running is FprintdSensor
        {
          return running
        }
        if sensor.driver == .fprintd {
          guard let bus else { return driver }
          return FprintdSensor(name: sensor.name, loop: bus, log: { line in log.notice(line) })
        }
        return ExecSensor(
          name: sensor.name, kind: sensor.kind, settings: sensor.exec,
          log: { line in log.notice(line) })
      })
  }

  /// Stops the out-of-process drivers of this registry that `successor` does not keep.
  public func stopDrivers(notIn successor: SensorRegistry?) {
    for driver in drivers where !(successor?.drivers.contains { $0 === driver } ?? false) {
      (driver as? ExecSensor)?.stop()
      (driver as? FprintdSensor)?.stop()
    }
  }
}
