import CDNSSD

#if canImport(Glibc)
import Glibc
#endif

/// Avahi's dns_sd compatibility library, loaded with `dlopen` when the first Bonjour operation needs it (a browse, an
/// advertisement, a lookup of a game by name), never at start: the binary is not linked with it (CDNSSD is the
/// header only), so a game against the computer, a join by address, `--version` or `--help` load neither it nor the
/// avahi-client, D-Bus, systemd and compression libraries it pulls in (a faster start, less resident memory).
///
/// Every dns_sd call of the module goes through the function pointers here; a library that is missing (or lacks a
/// function) is `BonjourError.libraryMissing`, which says what to install, for that operation and every later one.
// Unchecked, the C boundary: the fields are C function pointers into a library that is never unloaded, set once.
struct DNSSDLibrary: @unchecked Sendable {
    /// The library's soname (Debian's libavahi-compat-libdnssd1).
    static let soname = "libdns_sd.so.1"
    /// The Debian package that has it.
    static let package = "libavahi-compat-libdnssd1"

    let register: tictactoe_DNSServiceRegister
    let browse: tictactoe_DNSServiceBrowse
    let resolve: tictactoe_DNSServiceResolve
    let queryRecord: tictactoe_DNSServiceQueryRecord
    let refSockFD: tictactoe_DNSServiceRefSockFD
    let processResult: tictactoe_DNSServiceProcessResult
    let refDeallocate: tictactoe_DNSServiceRefDeallocate
    let updateRecord: tictactoe_DNSServiceUpdateRecord

    /// The process's library, loaded (and Avahi's allocator set) at the first use; the outcome is kept.
    static let shared: Result<DNSSDLibrary, BonjourError> = load(soname)

    /// Loads `name` and looks up the functions the module calls. Before any dns_sd call, Avahi's allocations are
    /// made zeroed (`tictactoe_avahi_zero_allocations` in CDNSSD's shim: the compatibility library's references are
    /// otherwise not zeroed, and a daemon that goes away can make it call a leftover pointer).
    static func load(_ name: String) -> Result<DNSSDLibrary, BonjourError> {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(.libraryMissing(detail: lastError() ?? "\(name): cannot open shared object file"))
        }
        func symbol<T>(_ symbolName: String, as type: T.Type) throws(BonjourError) -> T {
            guard let pointer = dlsym(handle, symbolName) else {
                throw .libraryMissing(detail: lastError() ?? "\(name): undefined symbol: \(symbolName)")
            }
            return unsafeBitCast(pointer, to: type)
        }
        do {
            // avahi_set_allocator is libavahi-common's, a dependency of libdns_sd: dlsym searches those too.
            let setAllocator = try symbol("avahi_set_allocator", as: tictactoe_avahi_set_allocator.self)
            let library = DNSSDLibrary(
                register: try symbol("DNSServiceRegister", as: tictactoe_DNSServiceRegister.self),
                browse: try symbol("DNSServiceBrowse", as: tictactoe_DNSServiceBrowse.self),
                resolve: try symbol("DNSServiceResolve", as: tictactoe_DNSServiceResolve.self),
                queryRecord: try symbol("DNSServiceQueryRecord", as: tictactoe_DNSServiceQueryRecord.self),
                refSockFD: try symbol("DNSServiceRefSockFD", as: tictactoe_DNSServiceRefSockFD.self),
                processResult: try symbol("DNSServiceProcessResult", as: tictactoe_DNSServiceProcessResult.self),
                refDeallocate: try symbol("DNSServiceRefDeallocate", as: tictactoe_DNSServiceRefDeallocate.self),
                updateRecord: try symbol("DNSServiceUpdateRecord", as: tictactoe_DNSServiceUpdateRecord.self))
            tictactoe_avahi_zero_allocations(setAllocator)
            return .success(library)
        } catch {
            dlclose(handle)
            return .failure(error)
        }
    }

    private static func lastError() -> String? {
        dlerror().map { String(cString: $0) }
    }
}
