import LocalAuthProtocol
import Testing

@testable import LocalAuthBroker

/// A touch answers the prompt its person sees (issue 28, docs/limits-and-threat-model.md): another
/// user's su for an account never takes the touch its owner gives at a prompt of her own.
extension SystemEvaluationTests {
  /// Hostile: bob runs `su alice` while alice's own app prompt is open. The su does not end her
  /// prompt: her touch answers her app, and the su waits for its own turn.
  @Test func anotherUsersSuDoesNotTakeTheTouchMeantForTheOwnersPrompt() async {
    let (harness, root) = await setUp()
    let app = await harness.connect(uid: Self.alice, gid: Self.alice, pid: 72)
    #expect(await app.call(Method.sensorsSetPasscode, ["passcode": "0000"])?.object != nil)
    let prompt = await app.startEvaluation()
    #expect(prompt.immediate == nil)
    let su = await startSystem(root, user: Self.alice, requester: Self.bob)
    #expect(su.immediate == nil)
    _ = harness.face.script([.match(identity: "alice-face")], replace: true)
    let answered = await app.recorder.waitForResponse(tag: prompt.tag)
    #expect(
      answered?.object?["sensor"] == "face", "her prompt was ended: \(String(describing: answered))"
    )
    // The su runs next, on its own touch.
    _ = harness.face.script([.match(identity: "alice-face")], replace: true)
    #expect(await outcome(root, su)?.object?["sensor"] == "face")
  }

  /// Hostile (issue 28, row 1): bob runs `su alice` and leaves it waiting; alice then runs sudo
  /// and touches once. Her sudo ends bob's su (`ownerAuthentication`), so her touch answers her
  /// own sudo, never his. Control: carol's sudo for her own account waits for bob's su instead.
  @Test func theOwnersSudoEndsAnotherUsersSuForHerAndTakesHerTouch() async {
    let (harness, root) = await setUp()
    let suAlice = await startSystem(root, user: Self.alice, requester: Self.bob)
    #expect(suAlice.immediate == nil)
    let sudo = await startSystem(root, user: Self.alice, requester: Self.alice)
    #expect(sudo.immediate == nil)
    let ended = await outcome(root, suAlice)
    #expect(ended?.error?.code == .systemCancel)
    #expect(ended?.error?.data["reason"] == "ownerAuthentication")
    _ = harness.face.script([.match(identity: "alice-face")], replace: true)
    #expect(await outcome(root, sudo)?.object?["sensor"] == "face")
  }

  /// Control for the rule above: a sudo for another account does not end bob's `su alice`; it
  /// waits, and the su's own touch answers the su.
  @Test func anotherAccountsSudoWaitsForARunningSu() async {
    let (harness, root) = await setUp()
    let suAlice = await startSystem(root, user: Self.alice, requester: Self.bob)
    let bobsSudo = await startSystem(root, user: Self.bob, requester: Self.bob)
    #expect(suAlice.immediate == nil && bobsSudo.immediate == nil)
    _ = harness.face.script([.match(identity: "alice-face")], replace: true)
    #expect(await outcome(root, suAlice)?.object?["sensor"] == "face")
    _ = harness.face.script([.match(identity: "bob-face")], replace: true)
    #expect(await outcome(root, bobsSudo)?.object?["sensor"] == "face")
  }

  /// Hostile (issue 28, row 2): alice's app prompt runs and bob's `su alice` waits for it; alice
  /// runs sudo, which ends her app prompt. Her sudo, queued after bob's su, still runs first, so
  /// her one touch answers her sudo; bob's su runs after it, on a touch of its own.
  @Test func anotherUsersSuQueuedEarlierDoesNotRunBeforeTheOwnersSudo() async {
    let (harness, root) = await setUp()
    let app = await harness.connect(uid: Self.alice, gid: Self.alice, pid: 72)
    #expect(await app.call(Method.sensorsSetPasscode, ["passcode": "0000"])?.object != nil)
    let prompt = await app.startEvaluation()
    #expect(prompt.immediate == nil)
    let suAlice = await startSystem(root, user: Self.alice, requester: Self.bob)
    #expect(suAlice.immediate == nil)
    let sudo = await startSystem(root, user: Self.alice, requester: Self.alice)
    #expect(sudo.immediate == nil)
    let appEnded = await app.recorder.waitForResponse(tag: prompt.tag)
    #expect(appEnded?.error?.data["reason"] == "systemAuthentication")
    _ = harness.face.script([.match(identity: "alice-face")], replace: true)
    #expect(await outcome(root, sudo)?.object?["sensor"] == "face")
    #expect(root.recorder.responses(tag: suAlice.tag).isEmpty, "bob's su took alice's touch")
    _ = harness.face.script([.match(identity: "alice-face")], replace: true)
    #expect(await outcome(root, suAlice)?.object?["sensor"] == "face")
  }
}
