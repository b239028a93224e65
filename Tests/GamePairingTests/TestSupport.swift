@testable import GamePairing

/// Bytes from hex text as the draft prints it (line breaks and spaces ignored).
func bytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.filter { !$0.isWhitespace }.utf8)
    precondition(digits.count % 2 == 0, "odd number of hex digits")
    return stride(from: 0, to: digits.count, by: 2).map {
        UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)!
    }
}

/// A secret's bytes, for comparing with a vector in a test.
func array(_ secret: SecretBytes) -> [UInt8] {
    secret.withUnsafeBytes { Array($0) }
}

func share(_ hex: String) throws -> CPace.Share {
    try CPace.Share(bytes: bytes(hex))
}
