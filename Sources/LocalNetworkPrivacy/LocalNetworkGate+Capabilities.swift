import GameProtocol
import NIOCore
import AppManifest

/// The only way to a capability: each call asks the gate (and so may show the prompt), logs the decision with the
/// origin, and mints the capability only when the operation may go ahead now.
extension LocalNetworkGate {
    /// Browse for (and resolve) Bonjour services of `serviceType`.
    public func browse(_ serviceType: String, for origin: OperationOrigin) -> Clearance<BrowseCapability> {
        clearance(.browse(serviceType: serviceType), origin) { _ in
            BrowseCapability(serviceType: serviceType, origin: origin)
        }
    }

    /// Advertise a Bonjour service of `serviceType`.
    public func advertise(_ serviceType: String, for origin: OperationOrigin) -> Clearance<AdvertiseCapability> {
        clearance(.advertise(serviceType: serviceType), origin) { _ in
            AdvertiseCapability(serviceType: serviceType, origin: origin)
        }
    }

    /// Listen at `target`: loopback is cleared without asking; every interface or a LAN address needs permission.
    public func listen(on target: ListenTarget, for origin: OperationOrigin) -> Clearance<ListenCapability> {
        clearance(.listen(bindHost: target.bindHost), origin) { verdict in
            ListenCapability(target: target, isLoopback: verdict == .exempt, origin: origin)
        }
    }

    /// Connect to one resolved `address`: loopback is cleared without asking; any other address needs permission.
    public func connect(to address: SocketAddress, for origin: OperationOrigin) -> Clearance<ConnectCapability> {
        clearance(.connect(Endpoint(address)), origin) { verdict in
            ConnectCapability(address: address, isLoopback: verdict == .exempt, origin: origin)
        }
    }

    /// Look up the addresses of a host name (an IP literal needs no lookup: see `EndpointResolution`).
    public func lookUp(_ endpoint: Endpoint, for origin: OperationOrigin) -> Clearance<NameLookupCapability> {
        clearance(.connect(endpoint), origin) { _ in NameLookupCapability(endpoint: endpoint, origin: origin) }
    }

    /// Join (and send to) a multicast group: needs the multicast entitlement (refused at once without it), then
    /// permission.
    public func joinGroup(_ group: MulticastGroup, for origin: OperationOrigin) -> Clearance<MulticastCapability> {
        clearance(.multicast(group), origin) { _ in MulticastCapability(group: group, origin: origin) }
    }

    /// Browse for every service type on the network: needs the multicast entitlement, then permission.
    public func browseServiceTypes(for origin: OperationOrigin) -> Clearance<ServiceTypesBrowseCapability> {
        clearance(.browseServiceTypes, origin) { _ in ServiceTypesBrowseCapability(origin: origin) }
    }

    /// Returns the capability `clear` grants, asking again each time the decision changes (here or in another
    /// process); while it must wait, `onWaiting` gets each new reason. Throws the refusal (NoAuth, no manifest, the
    /// decision cannot be watched) or `CancellationError`.
    ///
    /// `clear` is one of the gate's own calls, e.g. `{ gate.browse(GameService.type, for: origin) }`.
    public func waitUntilGranted<Capability>(
        _ clear: () -> Clearance<Capability>,
        onWaiting: (String) -> Void = { _ in }
    ) async throws -> Capability {
        let stream: AsyncStream<LocalNetworkAuthorization> = changes()
        var iterator = stream.makeAsyncIterator()
        var lastReason: String?
        while true {
            try Task.checkCancellation()
            switch clear() {
            case .granted(let capability):
                return capability
            case .refused(let error):
                throw error
            case .waiting(let reason, let authorization):
                // A prompt presenter that answers at once (a question on a terminal) changed the decision already.
                if self.authorization != authorization { continue }
                if reason != lastReason {
                    lastReason = reason
                    onWaiting(reason)
                }
                guard await iterator.next() != nil else {
                    try Task.checkCancellation()
                    throw LocalNetworkPrivacyError.cannotWatch(
                        "the decision in \(store.directory) cannot be watched (see the log)")
                }
            }
        }
    }

    private func clearance<Capability>(
        _ operation: LocalNetworkOperation, _ origin: OperationOrigin, mint: (GateVerdict) -> Capability
    ) -> Clearance<Capability> {
        let verdict = judge(operation, for: origin, recordsEveryVerdict: true)
        switch verdict {
        case .allowed, .exempt:
            return .granted(mint(verdict))
        case .needsPrompt:
            return .waiting(reason: waitingReason(for: .notDetermined), .notDetermined)
        case .denied:
            return .waiting(reason: waitingReason(for: .denied), .denied)
        case .noAuth(let type):
            return .refused(.noAuth(serviceType: type, manifestPath: manifestPath))
        case .manifestError(let text):
            return .refused(.manifest(text))
        case .missingEntitlement(let key):
            let path = manifestPath.map { AppEntitlements.path(besideManifest: $0) } ?? AppEntitlements.fileName
            return .refused(.missingEntitlement(key: key, path: path))
        }
    }
}
