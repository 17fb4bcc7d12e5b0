import CTPMShim
import CTSS2
import Synchronization

/// One TPM reached through a tss2 TCTI (`device:/dev/tpmrm0`, `swtpm:host=127.0.0.1,port=2321`):
/// the daemon's only way to its keys in the TPM.
///
/// Safe to share between threads: the one ESYS context is guarded by a `Mutex`, so calls run one
/// at a time. Every call blocks on the TPM (milliseconds), so call it from the store's thread, never
/// from the event loop or Swift concurrency's pool. Every transient object a call loads (the storage
/// key, the key it uses) is flushed before the call returns, success or not: a TPM without a
/// resource manager holds only three (docs/rights-and-keys.md, "Keys in the TPM"). A connection
/// that broke (the TPM went away) is dropped and opened again by the next call.
public final class TPM: Sendable {
  /// The TCTI string this TPM was reached by.
  public let tcti: String
  /// The open context, nil after a broken connection until the next call reopens it.
  private let session: Mutex<ESYSSession?>

  /// Opens the TPM at `tcti` and checks that it answers (the storage key is made and flushed).
  /// Throws `TPMError` of kind `.unreachable` when nothing answers there.
  public init(tcti: String) throws(TPMError) {
    self.tcti = tcti
    let opened = try ESYSSession(tcti: tcti)
    let srk = try opened.storageKey()
    opened.flush(srk)
    session = Mutex(opened)
  }

  /// Runs `body` with the open context, reopening it first if an earlier call broke it; a body that
  /// fails as `.unreachable` drops the context so the next call starts afresh.
  func withSession<T>(_ body: (ESYSSession) throws(TPMError) -> T) throws(TPMError) -> T {
    let result: Result<T, TPMError> = session.withLock { current in
      do throws(TPMError) {
        let open: ESYSSession
        if let current { open = current } else { open = try ESYSSession(tcti: tcti) }
        current = open
        return .success(try body(open))
      } catch {
        if error.kind == .unreachable { current = nil }
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// Runs `body` with the storage key loaded, flushing it afterwards.
  func underStorageKey<T>(_ body: (ESYSSession, ESYS_TR) throws(TPMError) -> T) throws(TPMError)
    -> T
  {
    try withSession { (session) throws(TPMError) -> T in
      let srk = try session.storageKey()
      defer { session.flush(srk) }
      return try body(session, srk)
    }
  }

  /// Runs `body` with `blobs` loaded under the storage key with auth value `auth`, flushing both.
  func withLoaded<T>(
    _ blobs: TPMKeyBlobs, auth: [UInt8], _ body: (ESYSSession, ESYS_TR) throws(TPMError) -> T
  ) throws(TPMError) -> T {
    try underStorageKey { (session, srk) throws(TPMError) -> T in
      let object = try session.load(blobs, under: srk, auth: auth)
      defer { session.flush(object) }
      return try body(session, object)
    }
  }
}

/// An ESYS context over its TCTI: opened, used and finalized under `TPM`'s lock only.
/// `@unchecked Sendable`: guarded by `TPM.session`, the Mutex that holds it; no call reaches it
/// without that lock.
final class ESYSSession: @unchecked Sendable {
  private let tctiContext: OpaquePointer
  /// The ESYS context every call goes through.
  let context: OpaquePointer

  /// Loads the TCTI named by `tcti` (`Tss2_TctiLdr_Initialize`) and opens ESYS over it
  /// (`Esys_Initialize`).
  init(tcti: String) throws(TPMError) {
    var loaded: OpaquePointer?
    let code = Tss2_TctiLdr_Initialize(tcti, &loaded)
    guard code == 0, let loaded else {
      throw TPMError("Tss2_TctiLdr_Initialize(\(tcti))", code: code, kind: .unreachable)
    }
    var opened: OpaquePointer?
    let esys = Esys_Initialize(&opened, loaded, nil)
    guard esys == 0, let opened else {
      var tctiContext: OpaquePointer? = loaded
      Tss2_TctiLdr_Finalize(&tctiContext)
      throw TPMError("Esys_Initialize(\(tcti))", code: esys, kind: .unreachable)
    }
    tctiContext = loaded
    context = opened
  }

  deinit {
    var esys: OpaquePointer? = context
    Esys_Finalize(&esys)
    var tcti: OpaquePointer? = tctiContext
    Tss2_TctiLdr_Finalize(&tcti)
  }

  /// The owner hierarchy's storage key, made again from the TPM's seed (`Esys_CreatePrimary`, the
  /// TCG template): the same key every time on one TPM, a different one on any other.
  func storageKey() throws(TPMError) -> ESYS_TR {
    var srk = ESYS_TR(ESYS_TR_NONE)
    try check(tpmkeys_create_srk(context, &srk), "Esys_CreatePrimary")
    return srk
  }

  /// Loads `blobs` under `parent` and sets its auth value (`Esys_Load`, `Esys_TR_SetAuth`).
  func load(_ blobs: TPMKeyBlobs, under parent: ESYS_TR, auth: [UInt8]) throws(TPMError)
    -> ESYS_TR
  {
    var object = ESYS_TR(ESYS_TR_NONE)
    let code = tpmkeys_load(
      context, parent, blobs.publicArea, blobs.publicArea.count, blobs.privateArea,
      blobs.privateArea.count, auth, auth.count, &object)
    if code != 0 {
      if object != ESYS_TR(ESYS_TR_NONE) { flush(object) }
      throw TPMError("Esys_Load", code: code)
    }
    return object
  }

  /// Flushes a transient object (`Esys_FlushContext`); a failure leaves nothing to do.
  func flush(_ object: ESYS_TR) {
    _ = Esys_FlushContext(context, object)
  }
}
