import Glibc

/// libFuzzer's entry points. One binary holds every target (one build for all of them); the
/// process fuzzes the one named by AFGET_FUZZ_TARGET, which Scripts/fuzz.sh sets.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
    _ = chosenTarget
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    chosenTarget.fuzz(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// Read once (a global is initialized lazily and only once).
private let chosenTarget: RegisteredTarget = {
    let name = getenv("AFGET_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    if name == "--list" {
        for target in allTargets { print(target.name) }
        exit(0)
    }
    guard let target = allTargets.first(where: { $0.name == name }) else {
        let names = allTargets.map(\.name).joined(separator: " ")
        let message = "afget-fuzz: set AFGET_FUZZ_TARGET to one of: \(names)\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        exit(2)
    }
    return target
}()
