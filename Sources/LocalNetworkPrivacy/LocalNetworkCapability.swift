import GameProtocol
import NIOCore
import TextSupport
import AppManifest

#if canImport(Glibc)
import Glibc
#endif

/// Which screen or command asked for a local-network operation. Every decision of the gate is logged with it, so the
/// log (and later a privacy report) says what triggered each use of the local network.
public struct OperationOrigin: Sendable, Hashable, CustomStringConvertible {
    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    public var description: String { name }
}

/// Proof that `LocalNetworkGate` cleared one local-network operation.
///
/// Only the gate makes capabilities: their initializers are internal to this module, and Bonjour (browse, resolve,
/// advertise) and GameTransport (listen, connect) take one for every operation that touches the network. So code that
/// skips the gate does not compile. Loopback operations get a capability too (the gate clears them without asking),
/// so every listener and every connection says where its permission came from.
///
/// The set grows with the app: TLS settings on a connection, a multicast group, all stay values only the gate mints.
public protocol LocalNetworkCapability: Sendable, CustomStringConvertible {
    /// What was cleared.
    var operation: LocalNetworkOperation { get }
    /// Who asked for it.
    var origin: OperationOrigin { get }
}

extension LocalNetworkCapability {
    public var description: String { "\(operation) (for \(origin))" }
}

/// Browse for Bonjour services of one type, and resolve the instances found (resolving is part of browsing).
public struct BrowseCapability: LocalNetworkCapability {
    public let serviceType: String
    public let origin: OperationOrigin
    public var operation: LocalNetworkOperation { .browse(serviceType: serviceType) }

    init(serviceType: String, origin: OperationOrigin) {
        self.serviceType = serviceType
        self.origin = origin
    }
}

/// Register a Bonjour service of one type.
public struct AdvertiseCapability: LocalNetworkCapability {
    public let serviceType: String
    public let origin: OperationOrigin
    public var operation: LocalNetworkOperation { .advertise(serviceType: serviceType) }

    init(serviceType: String, origin: OperationOrigin) {
        self.serviceType = serviceType
        self.origin = origin
    }
}

/// Where a host listens.
public enum ListenTarget: Sendable, Hashable, CustomStringConvertible {
    /// Every interface, IPv6 and IPv4: `::` with IPV6_V6ONLY off (0.0.0.0 where IPv6 is off).
    case everyInterface
    /// One address (an IP literal, or "localhost"), as `--bind` gives it.
    case address(String)

    /// `nil`, "", "*" and "any" mean every interface; anything else is one address.
    public init(bind: String?) {
        switch bind?.trimmingWhitespace() {
        case nil, "", "*", "any": self = .everyInterface
        case let host?: self = .address(host)
        }
    }

    /// The host the gate judges: "*" for every interface.
    public var bindHost: String {
        switch self {
        case .everyInterface: return "*"
        case .address(let host): return host
        }
    }

    public var description: String {
        switch self {
        case .everyInterface: return "every interface (IPv6 and IPv4)"
        case .address(let host): return host
        }
    }
}

/// Accept connections at a listen target. `isLoopback` is true when only this machine can connect (no permission was
/// needed, and the host must not be advertised: nobody on the LAN could join it).
public struct ListenCapability: LocalNetworkCapability {
    public let target: ListenTarget
    public let isLoopback: Bool
    public let origin: OperationOrigin
    public var operation: LocalNetworkOperation { .listen(bindHost: target.bindHost) }

    init(target: ListenTarget, isLoopback: Bool, origin: OperationOrigin) {
        self.target = target
        self.isLoopback = isLoopback
        self.origin = origin
    }
}

/// Connect to one resolved address (names are resolved by the app, and each address is cleared on its own, so that
/// nothing resolves a name to a LAN address behind the gate's back).
public struct ConnectCapability: LocalNetworkCapability {
    public let address: SocketAddress
    public let isLoopback: Bool
    public let origin: OperationOrigin
    public var operation: LocalNetworkOperation { .connect(Endpoint(address)) }

    init(address: SocketAddress, isLoopback: Bool, origin: OperationOrigin) {
        self.address = address
        self.isLoopback = isLoopback
        self.origin = origin
    }
}

/// Look up a host name (getaddrinfo): the lookup itself can reach the local network (mDNS for a `.local` name, the
/// LAN's DNS server), so it is cleared before it happens, and each address it yields is cleared again before any
/// connection. "localhost" is cleared without asking.
public struct NameLookupCapability: LocalNetworkCapability {
    public let endpoint: Endpoint
    public let origin: OperationOrigin
    public var operation: LocalNetworkOperation { .connect(endpoint) }

    init(endpoint: Endpoint, origin: OperationOrigin) {
        self.endpoint = endpoint
        self.origin = origin
    }
}

/// Join a multicast group and send to it (`com.apple.developer.networking.multicast`, then permission).
public struct MulticastCapability: LocalNetworkCapability {
    public let group: MulticastGroup
    public let origin: OperationOrigin
    public var operation: LocalNetworkOperation { .multicast(group) }

    init(group: MulticastGroup, origin: OperationOrigin) {
        self.group = group
        self.origin = origin
    }
}

/// Browse for every service type on the network (`_services._dns-sd._udp`), and list the types found.
public struct ServiceTypesBrowseCapability: LocalNetworkCapability {
    public let origin: OperationOrigin
    public var operation: LocalNetworkOperation { .browseServiceTypes }

    init(origin: OperationOrigin) {
        self.origin = origin
    }
}

extension Endpoint {
    /// The numeric endpoint of a socket address (link-local IPv6 keeps its scope: "fe80::1%eth0").
    public init(_ address: SocketAddress) {
        self.init(host: address.numericHost, port: address.port ?? 0)
    }
}

extension SocketAddress {
    /// The IP literal, with the interface of a scoped IPv6 address ("fe80::1%lab0").
    public var numericHost: String {
        let ip = ipAddress ?? "\(self)"
        guard case .v6(let v6) = self, v6.address.sin6_scope_id != 0 else { return ip }
        var name = [CChar](repeating: 0, count: Int(IF_NAMESIZE) + 1)
        guard if_indextoname(v6.address.sin6_scope_id, &name) != nil else {
            return "\(ip)%\(v6.address.sin6_scope_id)"
        }
        return "\(ip)%\(String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))"
    }
}

/// The gate's answer for one operation: a capability, or why not.
public enum Clearance<Capability: LocalNetworkCapability>: Sendable {
    /// Go ahead with this capability.
    case granted(Capability)
    /// Not now: the prompt has not been answered (`.notDetermined`) or the user said no (`.denied`). The operation
    /// waits, and `reason` says what would let it go on.
    case waiting(reason: String, LocalNetworkAuthorization)
    /// Not as the app is built: NoAuth (a service type missing from NSBonjourServices) or no manifest. Waiting would
    /// not help, so this is an error at once.
    case refused(LocalNetworkPrivacyError)

    /// The capability, when granted.
    public var capability: Capability? {
        if case .granted(let capability) = self { return capability }
        return nil
    }
}
