import LocalAuthServer
import Sensors
import Testing

/// `Kind=exec` sections: the driver's command, its kind of hardware and its supervision timeouts.
@Suite struct ExecConfigurationTests {
  @Test func anExecSectionReadsEveryKey() throws {
    let configuration = try ConfigurationParser.parse(
      """
      [Sensor.face]
      Biometry=opticID
      Kind=exec
      Exec=/usr/libexec/face-driver --camera /dev/video0
      StartTimeoutMs=1500
      PingIntervalMs=700
      HangTimeoutMs=900
      RestartDelayMs=50
      RestartMaxDelayMs=8000
      """, file: "t.conf")
    let face = try #require(configuration.sensors.first)
    #expect(face.driver == .exec)
    #expect(face.kind == .opticID)
    #expect(face.exec.command == ["/usr/libexec/face-driver", "--camera", "/dev/video0"])
    #expect(face.exec.startTimeout == .milliseconds(1500))
    #expect(face.exec.pingInterval == .milliseconds(700))
    #expect(face.exec.hangTimeout == .milliseconds(900))
    #expect(face.exec.restartDelay == .milliseconds(50))
    #expect(face.exec.restartMaxDelay == .milliseconds(8000))
  }

  @Test func badExecSectionsAreRefusedWithTheirLine() {
    let cases: [(String, String)] = [
      ("[Sensor.face]\nKind=exec", "has Kind=exec but no Exec="),
      ("[Sensor.face]\nKind=exec\nExec=face-driver", "must be an absolute path"),
      (
        "[Sensor.face]\nKind=exec\nExec=/x\nBiometry=passcode", "must be faceID, touchID or opticID"
      ),
      ("[Sensor.face]\nKind=exec\nExec=/x\nHangTimeoutMs=1", "must be an integer from 10"),
      ("[Sensor.face]\nKind=fingerprint", "must be exec, fprintd, password or one of"),
    ]
    for (text, reason) in cases {
      #expect(throws: ConfigurationError.self) { try ConfigurationParser.parse(text, file: "t") }
      do {
        _ = try ConfigurationParser.parse(text, file: "t")
      } catch {
        #expect(error.reason.contains(reason), "\(error)")
      }
    }
  }
}
