import CSodium

/// HKDF-SHA256 (RFC 5869) over libsodium's HMAC-SHA256: extract a pseudorandom key from the input keying material,
/// then expand it with `info` to `output.count` bytes (at most 255 × 32). An empty salt is HashLen zero bytes, as the
/// RFC says, which HMAC's key padding makes the same as no key at all.
enum HKDF {
    static let hashByteCount = Int(crypto_auth_hmacsha256_BYTES)

    static func sha256(
        inputKeyMaterial: UnsafeRawBufferPointer, salt: [UInt8] = [], info: [UInt8],
        into output: UnsafeMutableRawBufferPointer
    ) {
        _ = Sodium.ready
        precondition(output.count <= 255 * hashByteCount, "HKDF-SHA256 gives at most 8160 bytes")
        var pseudorandomKey = [UInt8](repeating: 0, count: hashByteCount)
        var block = [UInt8](repeating: 0, count: hashByteCount)
        defer {
            Sodium.wipe(&pseudorandomKey)
            Sodium.wipe(&block)
        }
        salt.withUnsafeBytes { salt in
            hmac(key: salt, [inputKeyMaterial], into: &pseudorandomKey)
        }
        var written = 0
        var counter: UInt8 = 0
        while written < output.count {
            counter += 1
            let previous = counter == 1 ? [] : block
            previous.withUnsafeBytes { previous in
                info.withUnsafeBytes { info in
                    withUnsafeBytes(of: counter) { counter in
                        pseudorandomKey.withUnsafeBytes { key in
                            hmac(key: key, [previous, info, counter], into: &block)
                        }
                    }
                }
            }
            let count = min(hashByteCount, output.count - written)
            block.withUnsafeBytes { block in
                UnsafeMutableRawBufferPointer(rebasing: output[written..<(written + count)])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: block[0..<count]))
            }
            written += count
        }
    }

    /// HMAC-SHA256 with `key` of the concatenation of `parts`, into `output` (32 bytes).
    private static func hmac(key: UnsafeRawBufferPointer, _ parts: [UnsafeRawBufferPointer], into output: inout [UInt8]) {
        var state = crypto_auth_hmacsha256_state()
        defer { withUnsafeMutableBytes(of: &state) { sodium_memzero($0.baseAddress, $0.count) } }
        // An empty key has no address; libsodium reads none of its bytes then, but wants a pointer.
        let none: UInt8 = 0
        withUnsafePointer(to: none) { none in
            _ = crypto_auth_hmacsha256_init(&state, key.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? none, key.count)
        }
        for part in parts {
            guard let base = part.baseAddress, part.count > 0 else { continue }
            _ = crypto_auth_hmacsha256_update(&state, base.assumingMemoryBound(to: UInt8.self), UInt64(part.count))
        }
        output.withUnsafeMutableBufferPointer { output in
            guard let base = output.baseAddress, output.count == hashByteCount else { return }
            _ = crypto_auth_hmacsha256_final(&state, base)
        }
    }
}
