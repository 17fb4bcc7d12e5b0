/// Every method and notification of protocol version 1, by type (docs/protocol.md, "Methods").
/// The server answers exactly the methods listed here (its route table is checked against this
/// list by a test), and a test checks that docs/protocol.md names each of them.
public enum MethodRegistry {
  /// The request types, one per method.
  public static let requests: [any RequestType.Type] = [
    HelloRequest.self, SetActiveRequest.self,
    CreateContextRequest.self, CanEvaluatePolicyRequest.self, EvaluatePolicyRequest.self,
    InvalidateContextRequest.self, DomainStateRequest.self, CancelEvaluationRequest.self,
    ListSensorsRequest.self, ScriptSensorRequest.self, EnrollRequest.self, UnenrollRequest.self,
    SetPasscodeRequest.self, ResetLockoutRequest.self, BrokerStatusRequest.self,
    MonitorRequest.self, FindingsRequest.self, TraceRequest.self,
    AgentRegisterRequest.self, AgentUnregisterRequest.self, AgentRespondRequest.self,
    AgentListRequest.self,
    RightCreateRequest.self, RightAuthorizeRequest.self, RightCheckCanAuthorizeRequest.self,
    RightDeauthorizeRequest.self, RightStateRequest.self, RightReleaseRequest.self,
    SaveRightRequest.self, LoadRightRequest.self, RemoveRightRequest.self,
    RemoveAllRightsRequest.self, PublicKeyRequest.self, KeySignRequest.self,
    KeyDecryptRequest.self, KeyExchangeRequest.self, SecretLoadRequest.self,
    HandoffCreateRequest.self, HandoffListRequest.self, HandoffAuthorizeRequest.self,
    HandoffRedeemRequest.self,
    SSHKeyCreateRequest.self, SSHKeyListRequest.self, SSHKeyDeleteRequest.self,
    SSHKeySignRequest.self, KeepPasswordRequest.self, ReleasePasswordRequest.self,
    DropPasswordRequest.self,
  ]

  /// The notification types the server sends.
  public static let notifications: [any NotificationType.Type] = [
    QueuedNotification.self, StartedNotification.self, ArmedNotification.self,
    FeedbackNotification.self,
    FallbackNotification.self, MonitorEventNotification.self,
    AgentPromptNotification.self, AgentFeedbackNotification.self,
    AgentPasscodeNotification.self, AgentEndedNotification.self,
    AgentWaitingNotification.self, AgentWaitEndedNotification.self,
    RightStateChangedNotification.self, HandoffStateChangedNotification.self,
  ]

  /// The method names, in the order of `requests`.
  public static var methodNames: [String] { requests.map { $0.method } }
  /// The notification names, in the order of `notifications`.
  public static var notificationNames: [String] { notifications.map { $0.method } }
}
