import LocalAuthClient
import LocalAuthCommandLine
import LocalAuthProtocol
import Testing

@Suite struct OutputFormatterTests {
  let text = OutputFormatter(json: false)
  let json = OutputFormatter(json: true)

  @Test func formatsSensorsAsATable() {
    let sensors = [
      SensorStatus(json: [
        "name": "face", "kind": "faceID", "available": true, "enrolled": ["alice", "bob"],
        "lockedOut": false, "failedAttempts": 2, "defaultMode": "WAIT", "queuedCommands": 2,
        "queuedScript": ["SLEEP 800", "MATCH"],
      ]),
      SensorStatus(json: [
        "name": "passcode", "kind": "passcode", "available": true, "enrolled": [],
        "lockedOut": true, "failedAttempts": 0, "defaultMode": "MATCH", "queuedCommands": 0,
      ]),
    ]
    // The default answer and the queued script show, so a replay left running is visible.
    #expect(
      text.sensors(sensors) == """
        SENSOR    KIND      AVAILABLE  LOCKED-OUT  FAILED  ENROLLED   DEFAULT  QUEUED
        face      faceID    yes        no          2       alice,bob  WAIT     SLEEP 800, MATCH
        passcode  passcode  yes        yes         0       -          MATCH    -
        """)
    let parsed = try? JSONParser.parse(Array(json.sensors(sensors).utf8))
    #expect(parsed?.objectValue?["sensors"]?.arrayValue?.count == 2)
  }

  @Test func formatsOutcomes() {
    let success = EvaluationSuccess(
      requestID: "R1", policy: .deviceOwnerAuthentication, sensor: "face", reused: false)
    #expect(text.success(success) == "R1: success (deviceOwnerAuthentication, sensor face)")
    #expect(
      json.success(success)
        == #"{"requestID":"R1","policy":"deviceOwnerAuthentication","sensor":"face","reused":false,"event":"finished","success":true}"#
    )
    let failure = LAError(.appCancel, message: "Canceled by the application.", requestID: "R2")
    #expect(
      text.failure(failure) == "error: appCancel (-9): Canceled by the application. [requestID R2]")
    #expect(
      json.failure(failure)
        == #"{"success":false,"error":{"name":"appCancel","code":-9,"message":"Canceled by the application.","requestID":"R2"}}"#
    )
    #expect(
      text.failure(RPCError(.alreadyInProgress)).hasPrefix("error: alreadyInProgress (-32001): "))
    // A missing daemon says how to start one.
    #expect(
      text.failure(ConnectionError(socketPath: "/x", errno: -2))
        == "error: cannotConnect: cannot connect to /x: No such file or directory; is localauthd running? Start the service with `sudo systemctl start localauthd.socket`, or `make run` in a clone (then export the LOCALAUTHD_SOCKET it prints)"
    )
  }

  @Test func formatsProgressAndStatus() throws {
    #expect(text.event(.queued(requestID: "R", position: 2)) == "R: queued at position 2")
    #expect(
      text.event(.feedback(requestID: "R", sensor: "face", feedback: "noMatch", attempt: 1))
        == "R: face: noMatch (attempt 1)")
    #expect(
      json.event(.fallback(requestID: "R", to: "passcode"))
        == #"{"requestID":"R","event":"fallback","to":"passcode"}"#)
    let status = try #require(
      BrokerStatus(json: [
        "version": "0.1", "uptimeSeconds": 12, "clients": 3, "evaluating": 1, "queued": 0,
        "outcomes": ["success": 4, "appCancel": 1],
      ]))
    #expect(text.status(status).contains("Outcomes: appCancel=1 success=4"))
    #expect(text.status(status).contains("Findings: none yet"))
    #expect(json.status(status).hasPrefix(#"{"version":"0.1","uptimeSeconds":12,"clients":3"#))
  }

  /// The README: findings are counted in `localauthctl status` (issue 29, item 3).
  @Test func statusCountsTheFindings() throws {
    let status = try #require(
      BrokerStatus(json: [
        "version": "0.1", "uptimeSeconds": 12, "clients": 3, "evaluating": 0, "queued": 0,
        "outcomes": ["success": 4],
        "findings": ["overlappingPrompts": 1, "repromptAfterCancel": 2, "contextChurn": 0],
      ]))
    #expect(
      OutputFormatter(json: false).status(status).contains(
        "Findings: 3 (overlappingPrompts=1 repromptAfterCancel=2; localauthctl doctor explains them)"
      ))
    #expect(
      OutputFormatter(json: true).status(status).hasSuffix(
        #""findings":{"contextChurn":0,"overlappingPrompts":1,"repromptAfterCancel":2}}"#))
  }

  /// Issue 32: status says where keys live, in text and JSON.
  @Test func statusSaysWhereKeysLive() throws {
    let tpm = try #require(
      BrokerStatus(json: [
        "version": "0.1", "uptimeSeconds": 1, "clients": 1, "evaluating": 0, "queued": 0,
        "keyStore": ["store": "tpm", "deviceKey": "tpm", "tcti": "device:/dev/tpmrm0"],
      ]))
    #expect(
      OutputFormatter(json: false).status(tpm).contains(
        "Keys: tpm (device:/dev/tpmrm0, device key sealed by the TPM)"))
    #expect(
      OutputFormatter(json: true).status(tpm).contains(
        #""keyStore":{"store":"tpm","deviceKey":"tpm","tcti":"device:/dev/tpmrm0"}"#))
    let file = try #require(
      BrokerStatus(json: [
        "version": "0.1", "keyStore": ["store": "file", "deviceKey": "file"],
      ]))
    #expect(OutputFormatter(json: false).status(file).contains("Keys: file"))
  }

  @Test func formatsMonitorEvents() {
    let event = MonitorEvent(params: [
      "event": "finished", "requestID": "R", "clientPID": 42, "clientUID": 1000,
      "clientName": "app",
      "policy": "deviceOwnerAuthentication", "error": ["code": -2, "name": "userCancel"],
    ])
    #expect(
      text.monitor(event)
        == "finished  R pid=42 uid=1000 client=app policy=deviceOwnerAuthentication error=userCancel"
    )
  }
}

extension OutputFormatterTests {
  @Test func formatsTheDaemonsFinishedEvent() {
    let event = MonitorEvent(params: [
      "event": "finished", "requestID": "R", "clientPID": 1, "clientUID": 0,
      "policy": "deviceOwnerAuthentication",
      "result": "appCancel", "reason": "cancelled",
    ])
    #expect(event.errorName == "appCancel")
    #expect(
      text.monitor(event)
        == "finished  R pid=1 uid=0 policy=deviceOwnerAuthentication result=appCancel reason=cancelled"
    )
  }
}

extension OutputFormatterTests {
  /// Issue 9, item 8: a client-chosen name never reaches the terminal raw.
  @Test func monitorAndErrorTextEscapeControlCharacters() {
    let event = MonitorEvent(params: [
      "event": "finished", "requestID": "R", "clientPID": 1, "clientUID": 1000,
      "clientName": "x\n\u{1B}[2Jfinished  R pid=1 uid=0 client=sudo result=success",
      "result": "success",
    ])
    let line = text.monitor(event)
    #expect(!line.contains("\n") && !line.contains("\u{1B}"), "\(line)")
    #expect(line.contains(#"client=x\n\u{1B}[2Jfinished"#))
    let failure = text.failure(LAError(.userCancel, message: "bad\rname\u{9B}31m"))
    #expect(!failure.contains("\r") && !failure.contains("\u{9B}"), "\(failure)")
  }
}
