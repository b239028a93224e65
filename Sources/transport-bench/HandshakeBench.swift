import GamePairing
import GameTransport
import PairingCode

/// The three ways to join a game that the bench times.
enum JoinKind: CaseIterable, Sendable {
    /// Protocol 1: TCP and the hello/accept exchange in clear.
    case plaintext
    /// An open game: CPace on the public code inside the TLS 1.2 PSK handshake, then hello/accept inside TLS.
    case open
    /// A private game: the same on a random 6-digit code, behind the listener's pairing-attempt limits.
    case privateCode

    var label: String {
        switch self {
        case .plaintext: return "join, plaintext (TCP + hello/accept)"
        case .open: return "handshake (CPace + TLS, open)"
        case .privateCode: return "handshake (CPace + TLS, private)"
        }
    }

    var isEncrypted: Bool { self != .plaintext }
}

/// Times joins from the call to `GameConnection.run` (the gate's check of 127.0.0.1, the TCP connect, for protocol 2
/// the whole TLS 1.2 PSK handshake with CPace on both ends, and the hello/accept exchange) until the link is ready
/// (the body of `run` starts). One host per kind, joined in turn (plaintext, open, private, plaintext, ...) so that
/// load from elsewhere on the machine falls on every kind alike; each host is free again before the next join.
struct HandshakeBench {
    let gate: BenchGate
    /// Timed joins of each kind.
    let joins: Int
    /// Untimed joins of each kind first (lazy initialisation: BoringSSL, libsodium, the event loops).
    let warmUp: Int

    func run() async throws -> [JoinKind: Samples] {
        var hosts: [JoinKind: LoopbackHost] = [:]
        var security: [JoinKind: JoinerSecurity] = [:]
        for kind in JoinKind.allCases {
            let (hostSecurity, joinerSecurity) = Self.security(for: kind)
            hosts[kind] = try await LoopbackHost(gate: gate, security: hostSecurity) { link in
                await link.closeGracefully()
                return .keepListening
            }
            security[kind] = joinerSecurity
        }
        var samples: [JoinKind: Samples] = [:]
        for round in 0..<(warmUp + joins) {
            for kind in JoinKind.allCases {
                let elapsed = try await join(&hosts[kind]!, security: security[kind]!, encrypted: kind.isEncrypted)
                if round >= warmUp { samples[kind, default: Samples()].append(elapsed) }
            }
        }
        for host in hosts.values { await host.stop() }
        return samples
    }

    /// Both ends' security for `kind`. A private game's host limits attempts to one a second per address by default
    /// (`PairingAttempts`): a real joiner makes one attempt, the bench makes hundreds from 127.0.0.1 in a row, so
    /// here that interval is zero; the limits are still checked and recorded on every connection.
    static func security(for kind: JoinKind) -> (HostSecurity, JoinerSecurity) {
        switch kind {
        case .plaintext:
            return (.plaintext, .plaintext)
        case .open:
            return (.tlsPSK(.pairing(code: .open)), .tlsPSK(.pairing(code: .open)))
        case .privateCode:
            let code = GameCode.random()
            let hostCode = PrivateGameCode(code, limits: .init(minimumInterval: .zero))
            return (.tlsPSK(.privateGame(hostCode)), .tlsPSK(.pairing(code: code)))
        }
    }

    /// One join, timed; the joiner then closes and the host is free again before this returns.
    private func join(_ host: inout LoopbackHost, security: JoinerSecurity, encrypted: Bool) async throws -> Duration {
        let connection = gate.connection(to: host.port, security: security)
        let clock = ContinuousClock()
        let start = clock.now
        let elapsed = try await connection.run { link -> Duration in
            let ready = clock.now
            guard (link.stats.secureSession != nil) == encrypted else {
                let session = link.stats.secureSession.map { "\($0)" } ?? "plaintext"
                throw BenchFailure("expected \(encrypted ? "TLS" : "plaintext"), the link is \(session)")
            }
            await link.closeGracefully()
            return start.duration(to: ready)
        }
        try await host.waitUntilFree()
        return elapsed
    }
}
