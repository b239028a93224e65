import GameProtocol
import LocalNetworkPrivacy
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

/// Turns an endpoint into socket addresses with getaddrinfo, so that the gate can clear each address before anything
/// connects to it: NIO never resolves a name behind the gate's back (`ClearedAddressResolver` hands it only cleared
/// addresses). IP literals, scoped link-local ones included ("fe80::1%eth0"), are parsed without any lookup; a name
/// needs the gate's `NameLookupCapability` first, since looking it up can itself reach the local network.
public enum EndpointResolution {
    /// The addresses of an IP literal (parsed, nothing sent), or nil when `endpoint.host` is a name.
    public static func literalAddresses(of endpoint: Endpoint) -> [SocketAddress]? {
        try? lookUp(endpoint, numericOnly: true)
    }

    /// The addresses of a host name, IPv6 first (as Happy Eyeballs prefers), without duplicates. The lookup runs on
    /// NIO's thread pool. Throws `ConnectionError.badAddress` when the name has no address.
    public static func addresses(of lookup: NameLookupCapability) async throws -> [SocketAddress] {
        let endpoint = lookup.endpoint
        return try await NIOThreadPool.singleton.runIfActive { try lookUp(endpoint, numericOnly: false) }
    }

    private static func lookUp(_ endpoint: Endpoint, numericOnly: Bool) throws -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_protocol = Int32(IPPROTO_TCP)
        hints.ai_family = AF_UNSPEC
        if numericOnly { hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV }
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(endpoint.host, String(endpoint.port), &hints, &list)
        guard status == 0, let first = list else {
            let why = status == 0 ? "no address" : String(cString: gai_strerror(status))
            throw ConnectionError.badAddress("cannot resolve \(endpoint.host): \(why)")
        }
        defer { freeaddrinfo(list) }
        var addresses: [SocketAddress] = []
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let info = next?.pointee {
            next = info.ai_next
            guard let raw = info.ai_addr else { continue }
            let address: SocketAddress
            switch info.ai_family {
            case AF_INET:
                address = raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { SocketAddress($0.pointee) }
            case AF_INET6:
                address = raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { SocketAddress($0.pointee) }
            default:
                continue
            }
            if !addresses.contains(address) { addresses.append(address) }
        }
        guard !addresses.isEmpty else {
            throw ConnectionError.badAddress("cannot resolve \(endpoint.host): no IPv4 or IPv6 address")
        }
        return addresses.filter { $0.protocol == .inet6 } + addresses.filter { $0.protocol == .inet }
    }
}

/// NIO's resolver for a connection: answers with the addresses the gate cleared, whatever host NIO asks about, so its
/// Happy Eyeballs (RFC 8305: IPv6 first, the next attempt staggered 250 ms after) races only cleared addresses.
struct ClearedAddressResolver: Resolver, Sendable {
    let capabilities: [ConnectCapability]
    let loop: EventLoop

    func initiateAQuery(host: String, port: Int) -> EventLoopFuture<[SocketAddress]> {
        loop.makeSucceededFuture(capabilities.map(\.address).filter { $0.protocol == .inet })
    }

    func initiateAAAAQuery(host: String, port: Int) -> EventLoopFuture<[SocketAddress]> {
        loop.makeSucceededFuture(capabilities.map(\.address).filter { $0.protocol == .inet6 })
    }

    func cancelQueries() {}
}
