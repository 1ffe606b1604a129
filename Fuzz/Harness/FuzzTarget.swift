/// A parser of outside bytes under the fuzzer: `fuzz` feeds it one input and checks what must
/// hold of the result (values within their limits, round trips, refusals that name a cause),
/// stopping the process through `expect` when something does not.
protocol FuzzTarget: Sendable {
    /// The name Scripts/fuzz.sh and the corpus directory (Fuzz/Corpus/NAME) use.
    static var name: String { get }
    static func fuzz(_ input: [UInt8])
}

/// A broken promise: libFuzzer keeps the input that caused it as a crash file and reports it.
func expect(_ holds: Bool, _ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    guard !holds else { return }
    fatalError("afget-fuzz: \(what())", file: file, line: line)
}

extension Array where Element == UInt8 {
    /// The input as text, invalid UTF-8 replaced: for parsers that take a String.
    var text: String { String(decoding: self, as: UTF8.self) }
}
