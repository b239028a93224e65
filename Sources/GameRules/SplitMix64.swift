/// The standard SplitMix64 generator (Steele, Lea and Flood): small, fast and seedable, for reproducible games.
/// Not suitable for cryptography.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator whose sequence is fully determined by `seed`.
    public init(seed: UInt64) {
        self.state = seed
    }

    /// The next 64 random bits. For seed 0 the sequence starts 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
