/// The host's policy for pairing attempts on a private game: who may start a handshake now, what a wrong code
/// does, and when the code must be replaced. A pure state machine (NIO's style: a struct whose inputs are
/// `mutating func`s returning what the caller must do): no I/O, no clock read inside (every input carries its
/// instant), no code generated here (the caller makes the new `GameCode` when told `.replaceCode`).
///
/// The caller asks `admit(_:at:)` when a connection arrives, before any handshake byte: `.proceed(attempt)` runs the
/// handshake, `.tooSoon(retryAfter:because:)` closes the connection at once. When the handshake ends it calls
/// `record(_:_:at:)` with the outcome and carries out the actions in order.
///
/// ## The rule
/// 1. **Per source, at most one attempt a second.** A source (`AttemptSource`: the IP address without port) may
///    start an attempt only one `minimumInterval` (1 s) after its previous one, and only when its previous one has
///    finished (so one address can never hold more than one handshake at a time).
/// 2. **Three wrong codes in a row replace the code.** Wrong codes are counted against the current code across all
///    sources; a success resets the count; a failure that is not a wrong code (`.otherFailure`) neither counts nor
///    resets. The third one asks the caller to replace the code, with the reason to show.
/// 3. **No code ever faces more than three guesses.** An attempt starts only while the wrong codes so far plus the
///    attempts under way are fewer than three, so attempts racing in parallel from many addresses cannot pile up
///    guesses against one code before the third failure replaces it. When the code is replaced, attempts still under
///    way (possible only after a late record, see 5) are abandoned: the caller closes them.
/// 4. **After a replacement everyone waits `cooldownAfterReplacement` (3 s).** Without it, many addresses in
///    parallel could replace the code as fast as handshakes run; with it, however many addresses a stranger uses,
///    the code changes at most once per 3 s, and a single address (1 attempt/s: guesses at 0, 1, 2 s, replaced at
///    2 s, cool-down to 5 s) at most once per 5 s. The real joiner needs longer than that to learn a new code anyway.
/// 5. **Bounded memory.** A source record counts as new `sourceMemory` (60 s) after its last attempt; at most
///    `maximumSources` (1024) are kept. When the table is full the record with the oldest attempt makes room if it no
///    longer limits anything (that attempt over a second ago, nothing under way); if it still does (more than 1024
///    addresses within a second), newcomers wait (`.tooManySources`) rather than any limit being forgotten. At most
///    three attempts are under way at once. An attempt not recorded within `handshakeAllowance` (10 s, longer than
///    the transport's 5 s handshake deadline) stops counting as under way.
///
/// The right code still gets in after failures: as soon as its source's second is over and no cool-down runs, the
/// next attempt proceeds, and a success resets the count.
///
/// ## Why an "other failure" is free
/// A connection closed during the handshake, a plaintext v1 hello, or a TLS error other than the Finished check
/// tells the peer nothing about the code: the only thing that depends on the code is the pre-shared key, and a peer
/// learns whether its key matches only by completing the CPace exchange and TLS's Finished check, which is a
/// `.wrongCode` (counted) or a `.success`. So probing with other failures costs a stranger attempts (rule 1 still
/// applies) and gains nothing; counting them would only let a broken client rotate the code.
///
/// ## Guessing odds
/// A private code is one of 1,000,000 (six digits, uniform from the CSPRNG). Against one code a guesser gets at most
/// three tries (rule 3), so each code falls with probability at most 3/1,000,000; the next code is fresh and
/// independent, so after `n` codes the chance is 1 − (1 − 3×10⁻⁶)ⁿ: about 3 × 10⁻⁶ × n while small.
/// - A 1% chance needs 3,351 codes (10,053 wrong guesses, each one shown on the host's screen with its address, and
///   3,351 "code replaced" notices).
/// - From many addresses in parallel every code after the first lives at least 3 s (rule 4): 1% takes at least
///   2 h 47 min, 50% at least 8.0 days (231,049 codes).
/// - From one address every code after the first lives at least 5 s: 1% takes at least 4 h 39 min, 50% at least
///   13.4 days.
/// `Configuration.guessingOdds` computes these figures for any configuration; a recorded handshake gives nothing to
/// test codes against offline (CPace), so every guess is one of these online attempts.
///
/// Limits: a stranger who uses three or more addresses and keeps three handshakes open (or guesses continuously)
/// can keep the real joiner waiting; on a LAN that stranger can deny service in plainer ways too (flooding, ARP).
/// What the rule guarantees is the odds above, and that the host sees every wrong code and every replacement.
public struct PairingAttempts<Instant: InstantProtocol> where Instant.Duration == Duration {
    /// The limits; `Configuration()` gives the ones described above.
    public struct Configuration: Sendable, Hashable {
        /// The least time between two attempts from one source.
        public var minimumInterval: Duration
        /// Wrong codes in a row (across sources) that replace the code; also the most attempts ever run on one code.
        public var failuresBeforeReplacement: Int
        /// How long every source waits after the code was replaced.
        public var cooldownAfterReplacement: Duration
        /// How long an admitted attempt counts as under way without being recorded (a safety net: the caller's own
        /// handshake deadline should be shorter and record it as `.otherFailure`).
        public var handshakeAllowance: Duration
        /// How long a source's record (its wrong codes) is kept after its last attempt.
        public var sourceMemory: Duration
        /// The most sources remembered at once.
        public var maximumSources: Int

        public init(
            minimumInterval: Duration = .seconds(1),
            failuresBeforeReplacement: Int = 3,
            cooldownAfterReplacement: Duration = .seconds(3),
            handshakeAllowance: Duration = .seconds(10),
            sourceMemory: Duration = .seconds(60),
            maximumSources: Int = 1024
        ) {
            precondition(failuresBeforeReplacement >= 1 && maximumSources >= 1, "limits must be positive")
            precondition(sourceMemory >= minimumInterval, "a source must be remembered while it is limited")
            self.minimumInterval = minimumInterval
            self.failuresBeforeReplacement = failuresBeforeReplacement
            self.cooldownAfterReplacement = cooldownAfterReplacement
            self.handshakeAllowance = handshakeAllowance
            self.sourceMemory = sourceMemory
            self.maximumSources = maximumSources
        }
    }

    /// One admitted attempt: pass it back to `record`. It belongs to the code that was current when it was admitted.
    public struct Attempt: Sendable, Hashable {
        public let source: AttemptSource
        let id: UInt64
        let code: UInt64
    }

    /// Whether a new connection may start its handshake.
    public enum Admission: Sendable, Hashable {
        case proceed(Attempt)
        /// Close the connection without a handshake; nothing can be admitted from this source before `retryAfter`
        /// (a lower bound: another limit may apply then).
        case tooSoon(retryAfter: Duration, because: Refusal)
    }

    /// Why an attempt was refused.
    public enum Refusal: Sendable, Hashable, CustomStringConvertible {
        /// This source's previous attempt started less than a second ago.
        case sourceTooSoon
        /// This source's previous attempt is still under way.
        case sourceBusy
        /// The code was just replaced after wrong codes: everyone waits.
        case codeJustReplaced
        /// As many attempts are under way as the code has guesses left.
        case guessesUnderWay
        /// Every remembered source is still rate-limited and the table is full.
        case tooManySources

        public var description: String {
            switch self {
            case .sourceTooSoon: "at most one attempt a second from one address"
            case .sourceBusy: "this address already has an attempt under way"
            case .codeJustReplaced: "the code was just replaced after wrong codes"
            case .guessesUnderWay: "other attempts are under way"
            case .tooManySources: "too many addresses are trying at once"
            }
        }
    }

    /// How a handshake ended.
    public enum Outcome: Sendable, Hashable {
        /// The keys matched: the joiner had the code.
        case success
        /// The keys did not match (TLS Finished check failed): a guess, counted.
        case wrongCode
        /// Anything else (closed or timed out during the handshake, plaintext v1, a malformed identity): not a guess.
        case otherFailure
    }

    /// Why the code must be replaced, in words for the host's screen.
    public enum ReplacementReason: Sendable, Hashable, CustomStringConvertible {
        case wrongCodesInARow(Int)

        public var description: String {
            switch self {
            case .wrongCodesInARow(let count): "\(count) wrong codes in a row"
            }
        }
    }

    /// What the caller must do, in order.
    public enum Action: Sendable, Hashable {
        /// Show a wrong code: its source, the wrong codes in a row on the current code (this one included) and the
        /// wrong codes from this source since it was last quiet for `sourceMemory`.
        case announceFailure(source: AttemptSource, failuresInARow: Int, fromSource: Int)
        /// Make a new code (`GameCode.random()`), use it for every attempt from now on, show it and the reason.
        case replaceCode(reason: ReplacementReason)
        /// Close this attempt's connection: it runs on a code that has been replaced.
        case abandon(Attempt)
        /// Wrong codes no longer count towards a replacement (a joiner got in): clear any "wrong codes" notice.
        case resetStreak
    }

    private struct SourceRecord {
        var lastAdmitted: Instant
        var wrongCodes: Int
        /// The attempt this source has under way, if any.
        var underWay: UInt64?
    }

    private struct UnderWay {
        var attempt: Attempt
        var admitted: Instant
    }

    public let configuration: Configuration
    private var sources: [AttemptSource: SourceRecord] = [:]
    private var underWay: [UInt64: UnderWay] = [:]
    /// Wrong codes in a row on the current code.
    private var streak = 0
    /// Which code is current: 0 for the first, one more per replacement.
    private var code: UInt64 = 0
    private var cooldownEnds: Instant?
    private var nextID: UInt64 = 0

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Wrong codes in a row on the current code.
    public var failuresInARow: Int { streak }

    /// How many sources are remembered (at most `configuration.maximumSources`).
    public var rememberedSources: Int { sources.count }

    /// How many attempts are under way (at most `configuration.failuresBeforeReplacement`).
    public var attemptsUnderWay: Int { underWay.count }

    /// Whether `attempt` still runs on the current code: a joiner whose attempt is not current must not get in.
    public func isCurrent(_ attempt: Attempt) -> Bool { attempt.code == code }

    /// Whether a connection from `source` may start its handshake at `now`.
    public mutating func admit(_ source: AttemptSource, at now: Instant) -> Admission {
        expireUnderWay(at: now)
        if let end = cooldownEnds {
            if now < end { return .tooSoon(retryAfter: now.duration(to: end), because: .codeJustReplaced) }
            cooldownEnds = nil
        }
        var known = sources[source]
        if let record = known {
            let nextAllowed = record.lastAdmitted.advanced(by: configuration.minimumInterval)
            if now < nextAllowed {
                return .tooSoon(retryAfter: now.duration(to: nextAllowed), because: .sourceTooSoon)
            }
            if record.underWay != nil {
                return .tooSoon(retryAfter: configuration.minimumInterval, because: .sourceBusy)
            }
            if record.lastAdmitted.advanced(by: configuration.sourceMemory) <= now { known = nil }
        }
        if streak + underWay.count >= configuration.failuresBeforeReplacement {
            let allowance = configuration.handshakeAllowance
            let firstExpiry = underWay.values.map { now.duration(to: $0.admitted.advanced(by: allowance)) }.min()
            return .tooSoon(
                retryAfter: min(configuration.minimumInterval, firstExpiry ?? configuration.minimumInterval),
                because: .guessesUnderWay)
        }
        if sources[source] == nil, sources.count >= configuration.maximumSources, let wait = makeRoom(at: now) {
            return .tooSoon(retryAfter: wait, because: .tooManySources)
        }
        let attempt = Attempt(source: source, id: nextID, code: code)
        nextID += 1
        underWay[attempt.id] = UnderWay(attempt: attempt, admitted: now)
        sources[source] = SourceRecord(lastAdmitted: now, wrongCodes: known?.wrongCodes ?? 0, underWay: attempt.id)
        return .proceed(attempt)
    }

    /// The end of an admitted attempt's handshake, at `now`.
    public mutating func record(_ attempt: Attempt, _ outcome: Outcome, at now: Instant) -> [Action] {
        underWay.removeValue(forKey: attempt.id)
        if sources[attempt.source]?.underWay == attempt.id { sources[attempt.source]?.underWay = nil }
        switch outcome {
        case .otherFailure:
            return []
        case .success:
            guard isCurrent(attempt) else { return [.abandon(attempt)] }
            guard streak > 0 else { return [] }
            streak = 0
            return [.resetStreak]
        case .wrongCode:
            // A late wrong code on a replaced code still counts against the current one: that can only bring the
            // next replacement sooner.
            streak += 1
            sources[attempt.source]?.wrongCodes += 1
            let fromSource = sources[attempt.source]?.wrongCodes ?? 1
            var actions: [Action] = [
                .announceFailure(source: attempt.source, failuresInARow: streak, fromSource: fromSource)
            ]
            if streak >= configuration.failuresBeforeReplacement {
                actions.append(.replaceCode(reason: .wrongCodesInARow(streak)))
                code += 1
                streak = 0
                cooldownEnds = now.advanced(by: configuration.cooldownAfterReplacement)
                for stale in underWay.values.sorted(by: { $0.attempt.id < $1.attempt.id }) {
                    actions.append(.abandon(stale.attempt))
                    sources[stale.attempt.source]?.underWay = nil
                }
                underWay.removeAll()
            }
            return actions
        }
    }

    /// Attempts admitted longer than `handshakeAllowance` ago stop counting as under way.
    private mutating func expireUnderWay(at now: Instant) {
        for (id, entry) in underWay where entry.admitted.advanced(by: configuration.handshakeAllowance) <= now {
            underWay.removeValue(forKey: id)
            if sources[entry.attempt.source]?.underWay == id { sources[entry.attempt.source]?.underWay = nil }
        }
    }

    /// Frees one place in the full table: forgets the record whose last attempt is the oldest, unless even that one
    /// still limits its source (then returns how long until it stops). A record with an attempt under way stays.
    private mutating func makeRoom(at now: Instant) -> Duration? {
        var oldest: (source: AttemptSource, lastAdmitted: Instant)?
        for (source, record) in sources where record.underWay == nil {
            if oldest.map({ record.lastAdmitted < $0.lastAdmitted }) ?? true { oldest = (source, record.lastAdmitted) }
        }
        guard let oldest else { return configuration.minimumInterval }
        let limitEnds = oldest.lastAdmitted.advanced(by: configuration.minimumInterval)
        guard limitEnds <= now else { return now.duration(to: limitEnds) }
        sources.removeValue(forKey: oldest.source)
        return nil
    }
}

extension PairingAttempts: Sendable where Instant: Sendable {}
