import Glibc

/// libFuzzer's driver (compiler-rt, LLVM 11+): parses the libFuzzer flags and runs the callback.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
  _ argc: UnsafeMutablePointer<Int32>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// localauthd-fuzz: the libFuzzer command line (`localauthd-fuzz [flags] CORPUS...`).
var argumentCount = CommandLine.argc
var argumentVector: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
let status = runFuzzerDriver(&argumentCount, &argumentVector) { data, size in
  guard let data else { return 0 }
  return fuzzOneInput(data, size)
}
exit(status)
