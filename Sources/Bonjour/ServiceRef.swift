import CDNSSD

/// One `DNSServiceRef` on the `DNSSDLoop`: its socket is watched, results are processed when readable, and it is
/// deallocated exactly once. Loop thread only.
///
/// Deallocating inside one of its own callbacks would free what `DNSServiceProcessResult` is still using (and Avahi
/// may deliver more callbacks from the same batch), so `cancel()` during processing only silences the callbacks and
/// the deallocation happens when `DNSServiceProcessResult` returns.
final class ServiceRef {
    private var ref: DNSServiceRef?
    private var source: DNSSDLoop.SourceID?
    private var processing = false
    private var cancelled = false
    private let loop: DNSSDLoop
    /// The loaded dns_sd library (`DNSSDLibrary`): every call on the reference goes through it.
    private let library: DNSSDLibrary
    /// Retained while the reference lives: the callbacks' context points at it.
    private let context: CallbackContext
    /// Called when processing fails (the library's socket broke): treat as a lost daemon.
    private let onFailure: (BonjourError) -> Void

    /// Creates the reference with `create` (which calls a function of the dns_sd library it is given, loaded at the
    /// first reference of the process, with the context pointer). On failure returns the mapped error: a library
    /// that cannot be loaded is `.libraryMissing`.
    static func make(
        loop: DNSSDLoop = .shared,
        context: CallbackContext,
        onFailure: @escaping (BonjourError) -> Void,
        _ create: (DNSSDLibrary, UnsafeMutablePointer<DNSServiceRef?>, UnsafeMutableRawPointer) -> DNSServiceErrorType
    ) -> Result<ServiceRef, BonjourError> {
        if BonjourSwitch.isDisabled { return .failure(.disabled) }
        let library: DNSSDLibrary
        switch DNSSDLibrary.shared {
        case .success(let loaded): library = loaded
        case .failure(let error): return .failure(error)
        }
        var ref: DNSServiceRef?
        let code = create(library, &ref, Unmanaged.passUnretained(context).toOpaque())
        guard code == kDNSServiceErr_NoError, let ref else {
            return .failure(BonjourError(code: code == 0 ? Int32(kDNSServiceErr_Unknown) : code))
        }
        return .success(ServiceRef(ref: ref, library: library, loop: loop, context: context, onFailure: onFailure))
    }

    private init(
        ref: DNSServiceRef, library: DNSSDLibrary, loop: DNSSDLoop, context: CallbackContext,
        onFailure: @escaping (BonjourError) -> Void
    ) {
        self.ref = ref
        self.library = library
        self.loop = loop
        self.context = context
        self.onFailure = onFailure
        let fd = library.refSockFD(ref)
        if fd >= 0 {
            source = loop.addSource(fd: fd) { [weak self] in self?.process() }
        }
    }

    private func process() {
        guard let ref, !cancelled else { return }
        processing = true
        let code = library.processResult(ref)
        processing = false
        if cancelled {
            deallocate()
        } else if code != kDNSServiceErr_NoError {
            cancel()
            onFailure(BonjourError(code: code))
        }
    }

    /// A registration's primary TXT record becomes `txt` (DNSServiceUpdateRecord with no record reference: Avahi's
    /// compatibility layer updates the service's TXT in place, and browsers that resolve it again read the new one).
    func updatePrimaryTXT(_ txt: [UInt8]) -> DNSServiceErrorType {
        guard let ref, !cancelled else { return DNSServiceErrorType(kDNSServiceErr_BadReference) }
        return txt.withUnsafeBytes { buffer in
            library.updateRecord(ref, nil, 0, UInt16(buffer.count), buffer.baseAddress, 0)
        }
    }

    /// Stops callbacks and deallocates the reference (after the current `DNSServiceProcessResult`, if inside one).
    func cancel() {
        cancelled = true
        context.isCancelled = true
        if !processing { deallocate() }
    }

    private func deallocate() {
        if let source { loop.removeSource(source) }
        source = nil
        if let ref { library.refDeallocate(ref) }
        ref = nil
    }

    deinit {
        context.isCancelled = true
        deallocate()
    }
}

/// The context of a reference's callbacks: the Swift closure to call. Callbacks after `cancel()` are dropped.
class CallbackContext {
    var isCancelled = false
}

final class BrowseContext: CallbackContext {
    /// (flags, interface, error, name)
    let handler: (DNSServiceFlags, UInt32, DNSServiceErrorType, String?) -> Void
    init(_ handler: @escaping (DNSServiceFlags, UInt32, DNSServiceErrorType, String?) -> Void) {
        self.handler = handler
    }

    static let callback: DNSServiceBrowseReply = { _, flags, interface, error, name, _, _, context in
        guard let context else { return }
        let box = Unmanaged<BrowseContext>.fromOpaque(context).takeUnretainedValue()
        guard !box.isCancelled else { return }
        box.handler(flags, interface, error, name.map { String(cString: $0) })
    }
}

final class RegisterContext: CallbackContext {
    /// (error, registered name)
    let handler: (DNSServiceErrorType, String?) -> Void
    init(_ handler: @escaping (DNSServiceErrorType, String?) -> Void) { self.handler = handler }

    static let callback: DNSServiceRegisterReply = { _, _, error, name, _, _, context in
        guard let context else { return }
        let box = Unmanaged<RegisterContext>.fromOpaque(context).takeUnretainedValue()
        guard !box.isCancelled else { return }
        box.handler(error, name.map { String(cString: $0) })
    }
}

final class ResolveContext: CallbackContext {
    struct Answer {
        var interface: UInt32
        var hostTarget: String
        var port: Int
        var txt: [UInt8]
    }
    let handler: (DNSServiceErrorType, Answer?) -> Void
    init(_ handler: @escaping (DNSServiceErrorType, Answer?) -> Void) { self.handler = handler }

    static let callback: DNSServiceResolveReply = { _, _, interface, error, _, host, port, txtLength, txt, context in
        guard let context else { return }
        let box = Unmanaged<ResolveContext>.fromOpaque(context).takeUnretainedValue()
        guard !box.isCancelled else { return }
        guard error == kDNSServiceErr_NoError, let host else {
            box.handler(error == 0 ? Int32(kDNSServiceErr_Unknown) : error, nil)
            return
        }
        let bytes = txt.map { Array(UnsafeBufferPointer(start: $0, count: Int(txtLength))) } ?? []
        box.handler(0, Answer(interface: interface, hostTarget: String(cString: host),
                              port: Int(UInt16(bigEndian: port)), txt: bytes))
    }
}

final class QueryContext: CallbackContext {
    /// (flags, interface, error, record type, record data)
    let handler: (DNSServiceFlags, UInt32, DNSServiceErrorType, UInt16, [UInt8]) -> Void
    init(_ handler: @escaping (DNSServiceFlags, UInt32, DNSServiceErrorType, UInt16, [UInt8]) -> Void) {
        self.handler = handler
    }

    static let callback: DNSServiceQueryRecordReply = {
        _, flags, interface, error, _, type, _, length, data, _, context in
        guard let context else { return }
        let box = Unmanaged<QueryContext>.fromOpaque(context).takeUnretainedValue()
        guard !box.isCancelled else { return }
        let bytes = data.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(length))) } ?? []
        box.handler(flags, interface, error, type, bytes)
    }
}
