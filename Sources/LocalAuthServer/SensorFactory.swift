import Sensors

extension SensorRegistry {
  /// The simulated drivers a configuration describes.
  public static func simulated(from configuration: DaemonConfiguration, time: any TimeSource)
    -> SensorRegistry
  {
    simulated(from: configuration, time: time, keeping: nil)
  }

  /// The drivers for a reloaded configuration: a sensor whose section did not change keeps its
  /// running driver (with the enrollments and script it has gathered since); the others are new.
  public static func simulated(
    from configuration: DaemonConfiguration, time: any TimeSource,
    keeping previous: (configuration: DaemonConfiguration, registry: SensorRegistry)?
  ) -> SensorRegistry {
    SensorRegistry(
      configuration.sensors.map { sensor in
        if let previous, previous.configuration.sensors.contains(sensor),
          let running = previous.registry.driver(named: sensor.name), running.kind == sensor.kind
        {
          return running
        }
        return SimulatedSensor(
          name: sensor.name, kind: sensor.kind,
          setup: SimulatedSensor.Setup(
            available: sensor.available, removable: sensor.removable, enrolled: sensor.enrolled,
            defaultBehavior: sensor.defaultBehavior,
            defaultDelay: .milliseconds(sensor.defaultDelayMilliseconds), script: sensor.script,
            owner: configuration.setupOwnerUID),
          time: time)
      })
  }
}
