import GameProtocol
import CDNSSD
import FoundationEssentials
import LocalNetworkPrivacy

#if canImport(Glibc)
import Glibc
#endif

/// Resolves game names to endpoints: `DNSServiceResolve` (host target, port, TXT), then `DNSServiceQueryRecord` for
/// the host target's A and AAAA records (Avahi's compatibility library has no `DNSServiceGetAddrInfo`, and
/// getaddrinfo would need nss-mdns). Thread-safe; the work runs on the Bonjour thread.
public final class GameResolver: GameResolving {
    private let loop: DNSSDLoop
    /// The gate's permission (resolving is part of browsing): the type resolved is the one it cleared.
    public let capability: BrowseCapability

    /// Resolves instances of `capability`'s service type (the gate cleared it: see `LocalNetworkGate.browse`).
    public init(capability: BrowseCapability) {
        self.capability = capability
        self.loop = .shared
    }

    /// Resolves `name` (an instance of `_tictactoe._tcp` in `local.`) as a person typed it: the advertised name it
    /// matches (NFC, Unicode case folded: `SpellingSearch`), whose spelling the result
    /// carries. Throws `BonjourError`: `.unavailable` without a daemon, `.notFound` when nothing answered within
    /// `timeout`, `.noAddress` when the host gave no address.
    public func resolve(_ name: String, timeout: Duration = .seconds(5)) async throws -> ResolvedGame {
        let loop = self.loop
        let handle = DNSSDLoop.Bound(OperationHandle(), loop: loop)
        let type = capability.serviceType
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ResolvedGame, Error>) in
                loop.execute {
                    let operationHandle = handle.value
                    operationHandle.continuation = continuation
                    if operationHandle.cancelled {
                        operationHandle.resume(.failure(CancellationError()))
                        return
                    }
                    let operation = ResolveOperation(
                        name: name, type: type, wantAddresses: true, matchSpellings: true, timeout: timeout, loop: loop
                    ) {
                        operationHandle.resume($0.mapError { $0 as Error })
                    }
                    operationHandle.operation = operation
                    operation.start()
                }
            }
        } onCancel: {
            loop.execute {
                let operationHandle = handle.value
                operationHandle.cancelled = true
                operationHandle.operation?.cancel()
                operationHandle.resume(.failure(CancellationError()))
            }
        }
    }

    /// Touched on the loop thread only (in a `DNSSDLoop.Bound`); resumes its continuation once.
    private final class OperationHandle {
        var operation: ResolveOperation?
        var cancelled = false
        var continuation: CheckedContinuation<ResolvedGame, Error>?

        func resume(_ result: Result<ResolvedGame, Error>) {
            let continuation = self.continuation
            self.continuation = nil
            operation = nil
            continuation?.resume(with: result)
        }
    }
}

/// One resolution on the loop thread. Completes at most once: with the service (and, if wanted, its addresses), or
/// with an error; after `cancel()` it completes never. A `progress` handler (a name the browse reported) hears of the
/// game at its first address, `addressGrace` before the completion that brings every address.
///
/// With `matchSpellings` (a name a person typed) it also browses the service type, resolves every advertised name
/// that matches the typed one (`SpellingSearch`) and takes the first answer; a name that does not answer then waits
/// for the timeout, as a matching spelling may still be browsed. Without it (a name the browse reported) the name is
/// resolved as it is, and its failure ends the operation.
final class ResolveOperation {
    typealias Completion = (Result<ResolvedGame, BonjourError>) -> Void
    typealias Progress = (ResolvedGame) -> Void

    let name: String
    private let type: String
    private let wantAddresses: Bool
    /// The advertised spellings of a typed name; nil to resolve `name` as it is.
    private var spellings: SpellingSearch?
    /// The name whose resolve answered (the report names its advertised spelling: `game(endpoints:)`).
    private var answeredName: String?
    /// Whether the addresses were ready before the browse reported any advertised spelling, and the operation then
    /// waited (up to `spellingGrace`) for one.
    private var waitedForSpelling = false
    private let timeout: Duration
    private let loop: DNSSDLoop
    private var completion: Completion?
    /// Told of the game as it stands at its first address, before the grace for more (`addressGrace`) runs out.
    private var progress: Progress?
    private var refs: [ServiceRef] = []
    private var timer: DNSSDLoop.TimerID?
    private var graceTimer: DNSSDLoop.TimerID?
    private var service: ResolveContext.Answer?
    private var addresses: [String] = []
    /// Addresses the record named that are no place for a game on the LAN (`ResolvedAddressPolicy`).
    private var refused: [RefusedAddress] = []
    /// How long to wait for more addresses (the other IP version) after the first.
    static let addressGrace: Duration = .milliseconds(150)
    /// How long to wait, once the addresses are in, for the browse to report the advertised spelling of a name the
    /// daemon answered as typed (mDNS ignores ASCII case): the report then names the game as advertised.
    static let spellingGrace: Duration = .seconds(1)

    init(
        name: String, type: String, wantAddresses: Bool, matchSpellings: Bool = false, timeout: Duration,
        loop: DNSSDLoop = .shared, progress: Progress? = nil, completion: @escaping Completion
    ) {
        self.name = name
        self.type = type
        self.wantAddresses = wantAddresses
        self.spellings = matchSpellings ? SpellingSearch(typed: name) : nil
        self.timeout = timeout
        self.loop = loop
        self.completion = completion
        self.progress = matchSpellings ? nil : progress
    }

    func start() {
        // The timer keeps this operation alive until it completes.
        timer = loop.schedule(after: timeout) { [self] in timedOut() }
        startResolve(of: spellings?.first ?? name)
        if spellings != nil, completion != nil { startBrowse() }
    }

    private func startResolve(of candidate: String) {
        let context = ResolveContext { [weak self] error, answer in
            self?.resolved(candidate, error: error, answer: answer)
        }
        let onFailure: (BonjourError) -> Void = { [weak self] in self?.finish(.failure($0)) }
        let type = self.type
        let result = ServiceRef.make(loop: loop, context: context, onFailure: onFailure) {
            $0.resolve($1, 0, 0, candidate, type, GameService.domain, ResolveContext.callback, $2)
        }
        switch result {
        case .success(let ref): refs.append(ref)
        case .failure(let error): finish(.failure(error))
        }
    }

    /// Browses the service type for other spellings of the typed name. A browse that fails leaves the typed name's
    /// own resolve to answer.
    private func startBrowse() {
        let context = BrowseContext { [weak self] flags, _, error, browsed in
            guard let self, error == kDNSServiceErr_NoError, flags & DNSServiceFlags(kDNSServiceFlagsAdd) != 0,
                  let browsed
            else { return }
            let candidate = spellings?.browsed(browsed)
            if service == nil {
                if let candidate { startResolve(of: candidate) }
            } else if waitedForSpelling, spellings?.advertised.isEmpty == false {
                finishWithAddresses()  // the spelling the report was waiting for
            }
        }
        let type = self.type
        let result = ServiceRef.make(loop: loop, context: context, onFailure: { _ in }) {
            $0.browse($1, 0, 0, type, GameService.domain, BrowseContext.callback, $2)
        }
        if case .success(let ref) = result { refs.append(ref) }
    }

    /// Drops the operation without calling its completion.
    func cancel() {
        completion = nil
        finish(.failure(.notFound(name: name)))
    }

    private func resolved(_ candidate: String, error: DNSServiceErrorType, answer: ResolveContext.Answer?) {
        guard service == nil else { return }  // one answer per interface and IP version: the first will do
        guard error == kDNSServiceErr_NoError, let answer else {
            // Avahi reports a resolver timeout with kDNSServiceErr_Unknown too: the name did not answer. Another
            // spelling of a typed name may still answer until the timeout.
            if spellings == nil { finish(.failure(.notFound(name: name))) }
            return
        }
        service = answer
        answeredName = candidate
        guard wantAddresses else {
            finish(.success(game(endpoints: [])))
            return
        }
        for type in [UInt16(kDNSServiceType_A), UInt16(kDNSServiceType_AAAA)] {
            let context = QueryContext { [weak self] flags, interface, error, type, data in
                self?.answered(flags: flags, interface: interface, error: error, type: type, data: data)
            }
            let host = answer.hostTarget
            let result = ServiceRef.make(loop: loop, context: context, onFailure: { _ in }) {
                $0.queryRecord($1, 0, 0, host, type, UInt16(kDNSServiceClass_IN), QueryContext.callback, $2)
            }
            switch result {
            case .success(let ref): refs.append(ref)
            case .failure(let error): finish(.failure(error))
            }
        }
    }

    private func answered(
        flags: DNSServiceFlags, interface: UInt32, error: DNSServiceErrorType, type: UInt16, data: [UInt8]
    ) {
        guard error == kDNSServiceErr_NoError, flags & DNSServiceFlags(kDNSServiceFlagsAdd) != 0,
              let address = Self.addressText(type: type, data: data, interface: interface),
              !addresses.contains(address), !refused.contains(where: { $0.address == address })
        else { return }
        if let refusal = ResolvedAddressPolicy.refusal(address: address, bytes: data, interfaceIndex: interface) {
            refused.append(refusal)
        } else {
            addresses.append(address)
        }
        if graceTimer == nil {
            graceTimer = loop.schedule(after: Self.addressGrace) { [weak self] in self?.finishWithAddresses() }
            if let progress, !addresses.isEmpty, let service {
                progress(game(endpoints: Self.ordered(addresses).map { Endpoint(host: $0, port: service.port) }))
            }
        }
    }

    private func finishWithAddresses() {
        guard let service else { return }
        if let spellings, spellings.advertised.isEmpty, !waitedForSpelling {
            waitedForSpelling = true
            loop.cancelTimer(graceTimer)
            graceTimer = loop.schedule(after: Self.spellingGrace) { [weak self] in self?.finishWithAddresses() }
            return
        }
        finish(.success(game(endpoints: Self.ordered(addresses).map { Endpoint(host: $0, port: service.port) })))
    }

    /// IPv6 first, as Happy Eyeballs (RFC 8305) prefers it; the join tries them all.
    private static func ordered(_ addresses: [String]) -> [String] {
        addresses.filter { $0.contains(":") } + addresses.filter { !$0.contains(":") }
    }

    private func timedOut() {
        timer = nil
        waitedForSpelling = true  // no more waiting for the advertised spelling either
        if service == nil {
            finish(.failure(.notFound(name: name, nearest: spellings?.nearest)))
        } else if addresses.isEmpty && refused.isEmpty {
            finish(.failure(.noAddress(name: name)))
        } else {
            finishWithAddresses()
        }
    }

    private func game(endpoints: [Endpoint]) -> ResolvedGame {
        let service = self.service!
        // The daemon may have answered the typed spelling (mDNS ignores ASCII case) before the browse reported the
        // advertised one: the browse goes on while the addresses are looked up, so it is asked only now.
        let answered = answeredName ?? name
        let reported = spellings?.reportedName(answering: answered) ?? answered
        return ResolvedGame(name: reported, hostTarget: service.hostTarget, port: service.port,
                            txt: TXTRecord(wire: service.txt), endpoints: endpoints, refusedAddresses: refused)
    }

    private func finish(_ result: Result<ResolvedGame, BonjourError>) {
        for ref in refs { ref.cancel() }
        refs = []
        loop.cancelTimer(timer)
        loop.cancelTimer(graceTimer)
        timer = nil
        graceTimer = nil
        let completion = self.completion
        self.completion = nil
        progress = nil
        completion?(result)
    }

    /// Text form of an A (4 bytes) or AAAA (16 bytes) record; link-local IPv6 gets its interface as scope.
    static func addressText(type: UInt16, data: [UInt8], interface: UInt32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch (type, data.count) {
        case (UInt16(kDNSServiceType_A), 4):
            guard inet_ntop(AF_INET, data, &buffer, socklen_t(buffer.count)) != nil else { return nil }
            return cString(buffer)
        case (UInt16(kDNSServiceType_AAAA), 16):
            guard inet_ntop(AF_INET6, data, &buffer, socklen_t(buffer.count)) != nil else { return nil }
            let text = cString(buffer)
            if data[0] == 0xfe && data[1] & 0xc0 == 0x80 {  // fe80::/10 needs a scope
                var name = [CChar](repeating: 0, count: Int(IF_NAMESIZE) + 1)
                guard interface != 0, if_indextoname(interface, &name) != nil else { return nil }
                return text + "%" + cString(name)
            }
            return text
        default:
            return nil
        }
    }

    /// The text of a NUL-terminated C string filled in by a C function (`String(cString:)` on an array is deprecated).
    private static func cString(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
