import GameTransport
import NIOPosix
import TicTacToeTestSupport

// TEST-ONLY stand-ins for the PAKE behind the TLS-PSK seam. The "key" is the code's text with a prefix: anyone who
// sees the code (or guesses it) has the key. Real games use CPace (another module) through the same protocols.

/// The key both sides derive from `code` (test-only: no PAKE, no secrecy).
func testOnlyKey(code: String) -> [UInt8] {
    Array("test-only-psk:\(code)".utf8)
}

/// For each PSK callback so far: whether it ran off an event loop (NIOSSL says they run on it).
let exchangeCallsOffTheEventLoop = Recorder<Bool>()

/// A host exchange for one connection: a fresh random hint, and the code's key for an identity built from that hint
/// (so the test sees the hint travel to the joiner and the identity come back).
struct TestHostExchange: PSKHostExchange {
    let code: String
    let sessionHint: String
    let seen: Recorder<String>?

    init(code: String, seen: Recorder<String>? = nil) {
        var random = SystemRandomNumberGenerator()
        self.code = code
        self.sessionHint = "test-session-" + String(random.next(), radix: 16)
        self.seen = seen
    }

    func hint() throws -> String { sessionHint }

    func key(forIdentity identity: String) throws -> [UInt8] {
        seen?.append(identity)
        exchangeCallsOffTheEventLoop.append(MultiThreadedEventLoopGroup.currentEventLoop == nil)
        guard identity == TestJoinerExchange.identity(forHint: sessionHint) else {
            throw TestExchangeError(text: "identity '\(identity)' does not answer hint '\(sessionHint)'")
        }
        return testOnlyKey(code: code)
    }
}

/// A joiner exchange: the identity answers the hint, the key is the code's.
struct TestJoinerExchange: PSKJoinerExchange {
    let code: String
    let seenHints: Recorder<String>?

    init(code: String, seenHints: Recorder<String>? = nil) {
        self.code = code
        self.seenHints = seenHints
    }

    static func identity(forHint hint: String) -> String { "joiner-for-" + hint }

    func identityAndKey(forHint hint: String) throws -> (identity: String, key: [UInt8]) {
        seenHints?.append(hint)
        exchangeCallsOffTheEventLoop.append(MultiThreadedEventLoopGroup.currentEventLoop == nil)
        return (Self.identity(forHint: hint), testOnlyKey(code: code))
    }
}

/// An exchange that refuses (a malformed share, say).
struct TestExchangeError: Error, CustomStringConvertible {
    var text: String
    var description: String { text }
}

struct RefusingJoinerExchange: PSKJoinerExchange {
    func identityAndKey(forHint hint: String) throws -> (identity: String, key: [UInt8]) {
        throw TestExchangeError(text: "the test joiner refuses hint \(hint)")
    }
}

/// A host that makes `TestHostExchange`s for `code`, recording each connection's hint, the identities it got and its
/// secure failures.
final class TestSecureHost: Sendable {
    let code: String
    let hints = Recorder<String>()
    let identities = Recorder<String>()
    let failures = Recorder<SecureChannelError>()

    init(code: String) {
        self.code = code
    }

    var security: HostSecurity {
        .tlsPSK(
            SecureHost(
                makeExchange: { [self] in
                    exchangeCallsOffTheEventLoop.append(MultiThreadedEventLoopGroup.currentEventLoop == nil)
                    let exchange = TestHostExchange(code: code, seen: identities)
                    hints.append(exchange.sessionHint)
                    return exchange
                },
                onFailure: { [failures] _, error in failures.append(error) }))
    }
}

func testJoinerSecurity(code: String, seenHints: Recorder<String>? = nil) -> JoinerSecurity {
    .tlsPSK(SecureJoiner { TestJoinerExchange(code: code, seenHints: seenHints) })
}
