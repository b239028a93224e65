import GameTransport
import LocalNetworkPrivacy

extension LocalNetworkGate {
    /// What ends a match with `link`'s peer when local network access is turned off: nothing for a loopback peer
    /// (exempt), nor for a link whose connection closed before the match began (its address went with it, and the
    /// match ends as the peer leaving); otherwise the gate's revocations. Subscribing for an unknown address would end
    /// a loopback match whose host left at once as "local network access was turned off" while access is not allowed.
    func revocations(for link: PeerLink) -> AsyncStream<Void>? {
        guard let address = link.remoteSocketAddress, !isExempt(address) else { return nil }
        return revocations()
    }
}
