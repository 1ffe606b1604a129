/// The bytes `text` spells with percent escapes decoded; nil when an escape is not `%` and two
/// ASCII hex digits (`UInt8(_:radix:)` would also take "+F" and "-0", and `Character` fullwidth
/// digits: found by fuzzing). URL paths and `filename*` values are decoded with it.
package func percentDecodedBytes(_ text: some Sequence<UInt8>) -> [UInt8]? {
    var bytes: [UInt8] = []
    var iterator = text.makeIterator()
    while let byte = iterator.next() {
        guard byte == UInt8(ascii: "%") else {
            bytes.append(byte)
            continue
        }
        guard let high = iterator.next().flatMap(hexDigitValue), let low = iterator.next().flatMap(hexDigitValue) else {
            return nil
        }
        bytes.append(high << 4 | low)
    }
    return bytes
}

/// The value of an ASCII hex digit (`0-9`, `a-f`, `A-F`), nil for any other byte.
package func hexDigitValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}
