import LocalAuthConcurrency
import Sensors

extension SensorRegistry {
  /// The simulated drivers a configuration describes (one for every section, whatever its driver).
  public static func simulated(from configuration: DaemonConfiguration, time: any TimeSource)
    -> SensorRegistry
  {
    SensorRegistry(
      configuration.sensors.map { sensor in
        SimulatedSensor(
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
