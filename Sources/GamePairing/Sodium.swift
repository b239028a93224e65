import CSodium

/// The one place libsodium is initialised: every entry point of this module that calls into libsodium first reads
/// `Sodium.ready` (a `static let`, so `sodium_init()` runs once, thread-safely, on first use).
enum Sodium {
    /// `sodium_init()` returns 0 the first time, 1 when already initialised, -1 when libsodium cannot work here (no
    /// usable randomness source): nothing in this module is safe then, so that stops the process.
    static let ready: Void = {
        guard sodium_init() >= 0 else {
            fatalError(
                "libsodium could not be initialised (sodium_init failed): no secure randomness available; check that "
                    + "the kernel provides getrandom(2) or that /dev/urandom is readable")
        }
    }()

    /// `count` bytes from libsodium's CSPRNG.
    static func randomBytes(_ count: Int) -> [UInt8] {
        _ = ready
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, $0.count) }
        return bytes
    }

    /// A uniformly distributed integer in `0..<upperBound` from libsodium's CSPRNG (no modulo bias).
    static func uniform(_ upperBound: UInt32) -> UInt32 {
        _ = ready
        return randombytes_uniform(upperBound)
    }

    /// Overwrites `bytes` with zeros in a way the compiler does not optimise away (best effort: copies the array
    /// made earlier, if any, are not reached).
    static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { sodium_memzero(base, buffer.count) }
        }
    }

    /// SHA-512 of `message` into `output` (64 bytes).
    static func sha512(_ message: [UInt8], into output: UnsafeMutableRawBufferPointer) {
        _ = ready
        precondition(output.count == Int(crypto_hash_sha512_BYTES))
        message.withUnsafeBytes { input in
            _ = crypto_hash_sha512(
                output.baseAddress!.assumingMemoryBound(to: UInt8.self),
                input.baseAddress?.assumingMemoryBound(to: UInt8.self),
                UInt64(input.count))
        }
    }
}
