import CSodium

extension CPace {
    /// The party that speaks first (A): its share goes out before it sees the peer's.
    ///
    /// Create it, send `share` (with the associated data ADa it was given), then `finish` with the responder's share
    /// and ADb to get the ISK. A value finishes once; copies share one scalar, so finish only one of them.
    public struct Initiator: Sendable {
        private var exchange: Exchange

        /// Ya, to send to the responder.
        public var share: Share { exchange.ownShare }

        /// Derives the generator from `password` (PRS), `channelIdentifier` (CI) and `sessionID` (sid), samples a
        /// fresh scalar and computes the share. `associatedData` is ADa: public, authenticated by the run.
        public init(
            password: [UInt8], channelIdentifier: [UInt8], sessionID: [UInt8], associatedData: [UInt8] = []
        ) throws(CPaceError) {
            exchange = try Exchange(
                role: .initiator, password: password, channelIdentifier: channelIdentifier, sessionID: sessionID,
                associatedData: associatedData, scalar: CPace.sampleScalar())
        }

        /// With a given scalar (little-endian), for the draft's test vectors only: a real run samples its own.
        init(
            password: [UInt8], channelIdentifier: [UInt8], sessionID: [UInt8], associatedData: [UInt8],
            testVectorScalar scalar: [UInt8]
        ) throws(CPaceError) {
            exchange = try Exchange(
                role: .initiator, password: password, channelIdentifier: channelIdentifier, sessionID: sessionID,
                associatedData: associatedData, scalar: SecretBytes(copying: scalar))
        }

        /// K = ya·Yb, then ISK (64 bytes). Throws `invalidPeerShare` when the draft says abort, `alreadyFinished` on
        /// a second call. Either way the scalar is dropped: the run is over.
        public mutating func finish(
            responderShare: Share, responderAssociatedData: [UInt8] = []
        ) throws(CPaceError) -> SecretBytes {
            try exchange.finish(peerShare: responderShare, peerAssociatedData: responderAssociatedData)
        }
    }

    /// The party that answers (B): it may compute its share before or after it sees the initiator's.
    ///
    /// Create it, send `share` (with ADb), and `finish` with the initiator's share and ADa to get the ISK. A value
    /// finishes once; copies share one scalar, so finish only one of them.
    public struct Responder: Sendable {
        private var exchange: Exchange

        /// Yb, to send to the initiator.
        public var share: Share { exchange.ownShare }

        /// As `Initiator.init`; `associatedData` is ADb.
        public init(
            password: [UInt8], channelIdentifier: [UInt8], sessionID: [UInt8], associatedData: [UInt8] = []
        ) throws(CPaceError) {
            exchange = try Exchange(
                role: .responder, password: password, channelIdentifier: channelIdentifier, sessionID: sessionID,
                associatedData: associatedData, scalar: CPace.sampleScalar())
        }

        /// With a given scalar (little-endian), for the draft's test vectors only.
        init(
            password: [UInt8], channelIdentifier: [UInt8], sessionID: [UInt8], associatedData: [UInt8],
            testVectorScalar scalar: [UInt8]
        ) throws(CPaceError) {
            exchange = try Exchange(
                role: .responder, password: password, channelIdentifier: channelIdentifier, sessionID: sessionID,
                associatedData: associatedData, scalar: SecretBytes(copying: scalar))
        }

        /// K = yb·Ya, then ISK (64 bytes). Throws as `Initiator.finish`.
        public mutating func finish(
            initiatorShare: Share, initiatorAssociatedData: [UInt8] = []
        ) throws(CPaceError) -> SecretBytes {
            try exchange.finish(peerShare: initiatorShare, peerAssociatedData: initiatorAssociatedData)
        }
    }
}

extension CPace.Initiator: CustomStringConvertible, CustomReflectable {
    /// Names the role and the state only.
    public var description: String {
        "CPace.Initiator(\(exchange.isFinished ? "finished" : "awaiting the responder's share"))"
    }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension CPace.Responder: CustomStringConvertible, CustomReflectable {
    /// Names the role and the state only.
    public var description: String {
        "CPace.Responder(\(exchange.isFinished ? "finished" : "awaiting the initiator's share"))"
    }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

/// What both parties do; `role` decides whose share comes first in the transcript.
struct Exchange: Sendable {
    enum Role: Sendable { case initiator, responder }

    private enum State: Sendable {
        case awaitingPeerShare(scalar: SecretBytes)
        case finished
    }

    let role: Role
    let sessionID: [UInt8]
    let associatedData: [UInt8]
    let ownShare: CPace.Share
    private var state: State

    var isFinished: Bool {
        if case .finished = state { true } else { false }
    }

    init(
        role: Role, password: [UInt8], channelIdentifier: [UInt8], sessionID: [UInt8], associatedData: [UInt8],
        scalar: SecretBytes
    ) throws(CPaceError) {
        let generator = CPace.calculateGenerator(
            password: password, channelIdentifier: channelIdentifier, sessionID: sessionID)
        var share = [UInt8](repeating: 0, count: CPace.shareByteCount)
        let ok = generator.withUnsafeBytes { generatorBytes in
            share.withUnsafeMutableBytes { CPace.scalarMultiply(scalar, generatorBytes, into: $0) }
        }
        guard ok else { throw .degenerateGenerator }
        self.role = role
        self.sessionID = sessionID
        self.associatedData = associatedData
        self.ownShare = try CPace.Share(bytes: share)
        self.state = .awaitingPeerShare(scalar: scalar)
    }

    mutating func finish(peerShare: CPace.Share, peerAssociatedData: [UInt8]) throws(CPaceError) -> SecretBytes {
        guard case .awaitingPeerShare(let scalar) = state else { throw .alreadyFinished }
        state = .finished
        let sharedPoint = try SecretBytes(count: CPace.shareByteCount) {
            (point: UnsafeMutableRawBufferPointer) throws(CPaceError) in
            let ok = peerShare.bytes.withUnsafeBytes { CPace.scalarMultiply(scalar, $0, into: point) }
            guard ok else { throw .invalidPeerShare }
        }
        let transcript = switch role {
        case .initiator:
            CPace.initiatorResponderTranscript(
                initiatorShare: ownShare.bytes, initiatorAssociatedData: associatedData,
                responderShare: peerShare.bytes, responderAssociatedData: peerAssociatedData)
        case .responder:
            CPace.initiatorResponderTranscript(
                initiatorShare: peerShare.bytes, initiatorAssociatedData: peerAssociatedData,
                responderShare: ownShare.bytes, responderAssociatedData: associatedData)
        }
        // lv_cat(G.DSI || b"_ISK", sid, K) || transcript_ir(Ya, ADa, Yb, ADb). It holds K: wiped after hashing.
        var input: [UInt8] = []
        input.reserveCapacity(
            CPace.iskDomainSeparator.count + sessionID.count + CPace.shareByteCount + transcript.count + 8)
        CPace.appendPrependingLength(CPace.iskDomainSeparator, to: &input)
        CPace.appendPrependingLength(sessionID, to: &input)
        sharedPoint.withUnsafeBytes { CPace.appendPrependingLength($0, to: &input) }
        input.append(contentsOf: transcript)
        defer { Sodium.wipe(&input) }
        return SecretBytes(count: CPace.intermediateSessionKeyByteCount) { (isk: UnsafeMutableRawBufferPointer) in
            Sodium.sha512(input, into: isk)
        }
    }
}
