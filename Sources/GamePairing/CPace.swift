import CSodium

/// CPace, the balanced PAKE of the IRTF's CFRG, exactly as **draft-irtf-cfrg-cpace-21** specifies it (pinned: the
/// test vectors of that revision's appendix "Test vector for CPace using group ristretto255 and hash SHA-512" are
/// checked byte for byte in `CPaceTestVectorTests`), with the cipher suite CPACE-RISTR255-SHA512 (group ristretto255
/// from libsodium, hash SHA-512) in the initiator-responder setting.
///
/// Both parties know a low-entropy password (PRS), a channel identifier (CI) and a session identifier (sid).
/// Each derives the secret generator g from them, picks a fresh scalar y and sends Y = y·g (its *share*, 32 bytes,
/// with its associated data AD). From the peer's share each computes K = y·Y_peer and the intermediate session key
///
///     ISK = SHA-512(lv_cat(b"CPaceRistretto255_ISK", sid, K) || lv_cat(Ya, ADa) || lv_cat(Yb, ADb))
///
/// (Ya, ADa from the initiator A; Yb, ADb from the responder B). Both get the same ISK exactly when PRS, CI, sid and
/// the transcript match; a share that is not a canonical ristretto255 encoding, or that makes K the identity, aborts
/// the run. A share says nothing about the password: an eavesdropper can test no password offline, and an active
/// attacker gets one guess per run.
///
/// Use `Initiator` on the side that speaks first and `Responder` on the other; each is a small state machine (create:
/// share ready; finish with the peer's share: ISK or an error; once only). Scalars, the generator and K are kept in
/// `SecretBytes` (never printed, zeroed when dropped); K is never exposed.
public enum CPace {
    /// The draft revision this implementation follows and whose test vectors it passes.
    public static let draftRevision = "draft-irtf-cfrg-cpace-21"

    /// The length of a share (a ristretto255 encoding).
    public static let shareByteCount = Int(crypto_core_ristretto255_BYTES)

    /// The length of the intermediate session key (a SHA-512 output).
    public static let intermediateSessionKeyByteCount = Int(crypto_hash_sha512_BYTES)

    /// G_Ristretto255.DSI.
    static let domainSeparator: [UInt8] = Array("CPaceRistretto255".utf8)

    /// G.DSI || b"_ISK", the first field of the ISK hash.
    static let iskDomainSeparator: [UInt8] = domainSeparator + Array("_ISK".utf8)

    /// H.s_in_bytes for SHA-512: the input block size that the zero padding of the generator string fills.
    static let hashBlockSize = 128

    /// G.I, the encoding of the identity element.
    static let identity = [UInt8](repeating: 0, count: shareByteCount)

    /// A party's public share Y = y·g: 32 bytes as sent on the wire. Only its length is checked here; whether it is a
    /// valid group element is decided when a party finishes with it (an invalid one aborts the run).
    public struct Share: Sendable, Hashable {
        /// The 32-byte encoding.
        public let bytes: [UInt8]

        /// Accepts any 32 bytes; other lengths throw `CPaceError.malformedShare`.
        public init(bytes: some Collection<UInt8>) throws(CPaceError) {
            let array = Array(bytes)
            guard array.count == CPace.shareByteCount else { throw .malformedShare(byteCount: array.count) }
            self.bytes = array
        }

        /// Whether the bytes are the canonical encoding of a group element other than the identity: the shares an
        /// honest party sends. Finishing with any other share fails.
        public var isValidGroupElement: Bool {
            _ = Sodium.ready
            return bytes != CPace.identity && crypto_core_ristretto255_is_valid_point(bytes) == 1
        }
    }
}

// MARK: - The draft's string functions (its appendix "CPace function definitions")

extension CPace {
    /// prepend_len: the LEB128 encoding of `data.count`, then `data`, appended to `output`.
    static func appendPrependingLength(_ data: some Collection<UInt8>, to output: inout [UInt8]) {
        var length = data.count
        repeat {
            output.append(length < 128 ? UInt8(length) : UInt8(length & 0x7f) | 0x80)
            length >>= 7
        } while length > 0
        output.append(contentsOf: data)
    }

    /// prepend_len(data).
    static func prependLength(_ data: some Collection<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(data.count + 2)
        appendPrependingLength(data, to: &output)
        return output
    }

    /// lv_cat(a0, a1, …): each field with its length prepended.
    static func lengthValueConcatenation(_ fields: [[UInt8]]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(fields.reduce(0) { $0 + $1.count + 2 })
        for field in fields { appendPrependingLength(field, to: &output) }
        return output
    }

    /// generator_string(DSI, PRS, CI, sid, s_in_bytes) = lv_cat(DSI, PRS, zero_bytes(len_zpad), CI, sid), with
    /// len_zpad = max(0, s_in_bytes - 1 - len(prepend_len(PRS)) - len(prepend_len(DSI))).
    ///
    /// The result holds the password: callers wipe it (`Sodium.wipe`) when done.
    static func generatorString(
        domainSeparator: [UInt8], password: [UInt8], channelIdentifier: [UInt8], sessionID: [UInt8],
        hashBlockSize: Int
    ) -> [UInt8] {
        let passwordFieldLength = prependLength(password).count
        let paddingLength = max(0, hashBlockSize - 1 - passwordFieldLength - prependLength(domainSeparator).count)
        var output: [UInt8] = []
        output.reserveCapacity(hashBlockSize + 2 * 4 + channelIdentifier.count + sessionID.count + password.count)
        appendPrependingLength(domainSeparator, to: &output)
        appendPrependingLength(password, to: &output)
        appendPrependingLength(repeatElement(UInt8(0), count: paddingLength), to: &output)
        appendPrependingLength(channelIdentifier, to: &output)
        appendPrependingLength(sessionID, to: &output)
        return output
    }

    /// transcript_ir(Ya, ADa, Yb, ADb) = lv_cat(Ya, ADa) || lv_cat(Yb, ADb): the initiator-responder transcript.
    static func initiatorResponderTranscript(
        initiatorShare: [UInt8], initiatorAssociatedData: [UInt8],
        responderShare: [UInt8], responderAssociatedData: [UInt8]
    ) -> [UInt8] {
        lengthValueConcatenation([initiatorShare, initiatorAssociatedData, responderShare, responderAssociatedData])
    }
}

// MARK: - G_Ristretto255 with H = SHA-512

extension CPace {
    /// G.calculate_generator(H, PRS, CI, sid): SHA-512 of the generator string (64 bytes = 2 · field size), mapped
    /// to the group by ristretto255's element derivation (`crypto_core_ristretto255_from_hash`, RFC 9496's
    /// one-way map). Returns the generator's 32-byte encoding, a secret (it determines the password).
    static func calculateGenerator(password: [UInt8], channelIdentifier: [UInt8], sessionID: [UInt8]) -> SecretBytes {
        _ = Sodium.ready
        var generatorString = generatorString(
            domainSeparator: domainSeparator, password: password, channelIdentifier: channelIdentifier,
            sessionID: sessionID, hashBlockSize: hashBlockSize)
        defer { Sodium.wipe(&generatorString) }
        let hash = SecretBytes(count: Int(crypto_hash_sha512_BYTES)) { (output: UnsafeMutableRawBufferPointer) in
            Sodium.sha512(generatorString, into: output)
        }
        return SecretBytes(count: shareByteCount) { (generator: UnsafeMutableRawBufferPointer) in
            hash.withUnsafeBytes { hashBytes in
                _ = crypto_core_ristretto255_from_hash(
                    generator.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    hashBytes.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
    }

    /// G.sample_scalar(): uniform in 1 ..< group order (`crypto_core_ristretto255_scalar_random`, the draft's
    /// permitted alternative to masked random bytes).
    static func sampleScalar() -> SecretBytes {
        _ = Sodium.ready
        return SecretBytes(count: Int(crypto_core_ristretto255_SCALARBYTES)) {
            (scalar: UnsafeMutableRawBufferPointer) in
            crypto_core_ristretto255_scalar_random(scalar.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// G.scalar_mult_vfy(y, X) with the abort folded in: y·X into `output`, or false when X does not decode (not a
    /// canonical encoding) or y·X is the identity G.I. `crypto_scalarmult_ristretto255` fails in exactly these
    /// cases. For X = the generator's encoding this is also G.scalar_mult(y, g).
    static func scalarMultiply(
        _ scalar: SecretBytes, _ point: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
    ) -> Bool {
        _ = Sodium.ready
        precondition(point.count == shareByteCount && output.count == shareByteCount)
        return scalar.withUnsafeBytes { scalarBytes in
            crypto_scalarmult_ristretto255(
                output.baseAddress!.assumingMemoryBound(to: UInt8.self),
                scalarBytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                point.baseAddress!.assumingMemoryBound(to: UInt8.self)) == 0
        }
    }
}
