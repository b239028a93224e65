import GameClient
import GameProtocol
import Localization
import TextSupport
import TerminalWidgets

/// "All services on this network" (s on the Search screen): every service type announced on the local network, as
/// the app core lists them (the gate's `browseServiceTypes`: the multicast entitlement, then permission).
public struct ServiceTypesState: Sendable, Hashable {
    public typealias Status = DiscoveryStatus

    package enum Outcome {
        case none, back, retry
    }

    public private(set) var status: Status = .starting
    public private(set) var types: [String] = []
    /// The first type shown (the list scrolls with ↑/↓).
    public private(set) var top = 0

    public init() {}

    /// Whether listing failed or Bonjour is unavailable: `r` tries again.
    public var cannotList: Bool { status.canRetry }

    package mutating func apply(_ update: ServiceTypesUpdate) {
        switch update {
        case .available:
            status = .available
        case .unavailable(let text):
            status = .unavailable(text)
            types = []
        case .types(let list):
            types = list
            top = min(top, max(0, list.count - 1))
            status = .available
        case .waiting(let reason):
            status = .waiting(reason)
            types = []
        case .failed(let text):
            status = .failed(text)
            types = []
        }
        if types.isEmpty { top = 0 }
    }

    /// What a key does to the list itself.
    package mutating func react(to key: Key) -> Outcome {
        switch key {
        case .escape, .character("q"):
            return .back
        case .character("r") where cannotList:
            return .retry
        case .up, .character("k"):
            top = max(0, top - 1)
        case .down, .character("j"):
            top = min(max(0, types.count - 1), top + 1)
        default:
            break
        }
        return .none
    }
}
