import LocalAuthProtocol
import Sensors

extension Broker {
  /// The error of an evaluation whose driver failed mid-capture (crash, hang, garbage, service gone, busy):
  /// `biometryNotAvailable` with the failure's reason, logged with its detail; `biometryNotEnrolled` when
  /// the service found no enrolled identity for the owner.
  func sensorFailed(_ failure: SensorFailure, _ evaluation: Evaluation) -> RPCError {
    log.notice(
      "sensor \(evaluation.sensor ?? "-") failed during evaluation \(evaluation.requestID): \(failure)"
    )
    if failure.reason == .notEnrolled { return error(.biometryNotEnrolled, evaluation) }
    return error(
      .biometryNotAvailable, evaluation, reason: failure.reason.rawValue,
      message: "The sensor's driver failed: \(failure.reason.rawValue).")
  }
}
