import Bonjour
import Foundation
import GameTransport
import LocalNetworkPrivacy
import NIOCore
import TicTacToeApp

/// `runHost`'s advertising through Bonjour: reports what the daemon says ("Advertised as NAME", or that advertising
/// is unavailable: the host still serves joiners by address).
final class BonjourHostAdvertising: HostAdvertising, @unchecked Sendable {
    private let advertiser: GameAdvertiser
    private let subscription: BonjourSubscription

    init(capability: AdvertiseCapability, name: String, reporter: DiscoveryReporter) {
        advertiser = GameAdvertiser(capability: capability, name: name)
        subscription = advertiser.observe { event in
            switch event {
            case .registered(let name): reporter.report(.advertised(name: name))
            case .unavailable(let error): reporter.report(.advertisingUnavailable(message: error.description))
            case .withdrawn: reporter.report(.withdrawn)
            }
        }
    }

    func advertise(port: Int) { advertiser.advertise(port: port) }
    func withdraw() { advertiser.withdraw() }
    func stop() {
        advertiser.stop()
        subscription.cancel()
    }
}

/// `tictactoe join NAME`: resolves the Bonjour name (retrying until `connectTimeout` while it does not answer), then
/// joins the addresses it gave, in turn.
func joinByName(
    _ name: String, browse: BrowseCapability, gate: LocalNetworkGate, options: MatchOptions, connectTimeout: Double,
    matchReporter: MatchReporter, discoveryReporter: DiscoveryReporter, stop: StopSignal
) async -> ExitStatus {
    let resolver = GameResolver(capability: browse)
    let start = ContinuousClock.now
    let deadline = start + .nanoseconds(Int64(connectTimeout * 1e9))
    var lastError = BonjourError.notFound(name: name)
    while true {
        if stop.raised != nil {
            let status: ExitStatus = stop.raised == .shutdown ? .terminated : .interrupted
            discoveryReporter.report(.error("stopped before the match began", status))
            return status
        }
        let remaining = deadline - .now
        if remaining <= .zero {
            let message = "\(lastError) (within --connect-timeout \(connectTimeout) s)"
            discoveryReporter.report(.error(message, .unreachable))
            return .unreachable
        }
        do {
            let game = try await resolver.resolve(name, timeout: min(max(remaining, .milliseconds(500)), .seconds(5)))
            if case .incompatible(let reason) = game.compatibility {
                discoveryReporter.report(.error("'\(name)' cannot be joined: \(reason)", .rejected))
                return .rejected
            }
            discoveryReporter.report(.resolved(name: game.name, addresses: game.endpoints.map(\.description)))
            let left = max(deadline - .now, .seconds(1))
            return await runJoin(
                options, endpoints: game.endpoints, connectTimeout: .nanoseconds(Int64(left.seconds * 1e9)),
                gate: gate, reporter: matchReporter, stop: stop
            )
        } catch let error as BonjourError {
            switch error {
            case .unavailable, .notAllowed, .disabled:
                discoveryReporter.report(.error(error.description, .bonjourUnavailable))
                return .bonjourUnavailable
            case .notFound, .noAddress, .failed:
                lastError = error
                try? await Task.sleep(nanoseconds: 300_000_000)
            }
        } catch {
            discoveryReporter.report(.error("\(error)", .failure))
            return .failure
        }
    }
}
