import LocalAuthCrypto
import Testing

@Suite("Sharing keys between threads")
struct SharedKeyTests {
  @Test("One key signs, verifies and decrypts from several tasks at once")
  func concurrentUse() async throws {
    let key = try P256PrivateKey.generate()
    let ciphertext = try ECIES.encrypt([1, 2, 3], to: key.publicKey)
    let failures = await withTaskGroup(of: Int.self) { group in
      for worker in 0..<4 {
        group.addTask {
          var failures = 0
          for round in 0..<150 {
            let message = [UInt8(worker), UInt8(round & 0xff)]
            let signed = (try? key.signature(for: message)).map {
              key.publicKey.isValidSignature($0, for: message)
            }
            if signed != true { failures += 1 }
            if (try? key.decrypt(ciphertext)) != [1, 2, 3] { failures += 1 }
          }
          return failures
        }
      }
      return await group.reduce(0, +)
    }
    #expect(failures == 0)
  }
}
