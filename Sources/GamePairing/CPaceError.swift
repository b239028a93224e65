/// Why a CPace run could not go on. Every case ends the run: a party that saw one derives no key.
public enum CPaceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A share that is not 32 bytes long.
    case malformedShare(byteCount: Int)
    /// The peer's share is not a canonical ristretto255 encoding, or it makes the shared point K the identity
    /// (G.scalar_mult_vfy returned G.I): the draft's abort. An honest peer never sends one.
    case invalidPeerShare
    /// Our own share came out as the identity: the generator derived from the inputs is the identity (probability
    /// about 2^-252, so in practice never).
    case degenerateGenerator
    /// `finish` was called a second time: each party runs once with one scalar (the draft: scalars MUST NOT be
    /// reused).
    case alreadyFinished

    public var description: String {
        switch self {
        case .malformedShare(let byteCount):
            "a CPace share is \(CPace.shareByteCount) bytes, not \(byteCount)"
        case .invalidPeerShare:
            "the peer's CPace share is not a valid group element (the key exchange was aborted)"
        case .degenerateGenerator:
            "the CPace generator is the identity element (the key exchange was aborted)"
        case .alreadyFinished:
            "this CPace party has already finished: start a new one for a new session"
        }
    }
}
