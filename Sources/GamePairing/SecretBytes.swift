import CSodium

/// Secret key material (a CPace scalar or generator, an intermediate session key, a pre-shared key): never printed,
/// compared in constant time, and zeroed with `sodium_memzero` when the last reference goes away.
///
/// The bytes live in memory this object allocates and owns; they are written once, while it is initialised, and only
/// read afterwards. `description`, `debugDescription` and the mirror (`dump`, `print`, string interpolation) show the
/// length only. Use `withUnsafeBytes` to hand the bytes to another library (e.g. copy them into TLS's own secure
/// storage) without making Swift arrays of them.
public final class SecretBytes: @unchecked Sendable {
    // @unchecked: the allocation is a raw pointer (not Sendable to the compiler), written only inside `init` and read
    // only afterwards; `deinit` runs when no other reference exists. So sharing it across threads is safe.
    private let allocation: UnsafeMutableRawBufferPointer

    /// The number of bytes.
    public let count: Int

    /// Allocates `count` zeroed bytes and lets `initializer` write them. If `initializer` throws, the bytes are
    /// zeroed and freed before the error propagates.
    init<E: Error>(count: Int, initializer: (UnsafeMutableRawBufferPointer) throws(E) -> Void) throws(E) {
        precondition(count >= 0)
        let allocation = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 16)
        allocation.initializeMemory(as: UInt8.self, repeating: 0)
        do {
            try initializer(UnsafeMutableRawBufferPointer(rebasing: allocation[0..<count]))
        } catch {
            SecretBytes.release(allocation)
            throw error
        }
        self.allocation = allocation
        self.count = count
    }

    /// A copy of `bytes` (the caller's own copy is not wiped: for test vectors and keys that arrive as arrays).
    public convenience init(copying bytes: some Collection<UInt8>) {
        let array = Array(bytes)
        self.init(count: array.count) { (buffer: UnsafeMutableRawBufferPointer) in
            buffer.copyBytes(from: array)
        }
    }

    deinit {
        SecretBytes.release(allocation)
    }

    private static func release(_ allocation: UnsafeMutableRawBufferPointer) {
        sodium_memzero(allocation.baseAddress!, allocation.count)
        allocation.deallocate()
    }

    /// Calls `body` with the bytes (valid only during the call: do not keep the pointer).
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(rebasing: allocation[0..<count]))
    }
}

extension SecretBytes: Equatable {
    /// Equal lengths and equal bytes, compared in constant time (`sodium_memcmp`).
    public static func == (lhs: SecretBytes, rhs: SecretBytes) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard lhs.count > 0 else { return true }
        return sodium_memcmp(lhs.allocation.baseAddress!, rhs.allocation.baseAddress!, lhs.count) == 0
    }
}

extension SecretBytes: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The length only, never the bytes.
    public var description: String { "SecretBytes(\(count) bytes, redacted)" }
    public var debugDescription: String { description }
    /// No children: `dump` and debuggers' summaries show nothing of the bytes.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .class) }
}
