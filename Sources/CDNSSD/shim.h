#ifndef TICTACTOE_CDNSSD_SHIM_H
#define TICTACTOE_CDNSSD_SHIM_H
// Avahi's Bonjour compatibility library (libavahi-compat-libdnssd-dev for the header). The header only: the binary is
// not linked with libdns_sd. The Bonjour module loads it with dlopen at its first dns_sd call (`DNSSDLibrary`), so
// a game against the computer, a join by address, --version or --help never load it, nor the avahi-client, D-Bus
// and systemd libraries it pulls in (a faster start, less resident memory). The types below are those of the
// header's functions (`__typeof__` names a function without referencing it), for the pointers dlsym returns.
#include <avahi-compat-libdns_sd/dns_sd.h>
#include <stdlib.h>
#include <avahi-common/malloc.h>

typedef __typeof__(&DNSServiceRegister) tictactoe_DNSServiceRegister;
typedef __typeof__(&DNSServiceBrowse) tictactoe_DNSServiceBrowse;
typedef __typeof__(&DNSServiceResolve) tictactoe_DNSServiceResolve;
typedef __typeof__(&DNSServiceQueryRecord) tictactoe_DNSServiceQueryRecord;
typedef __typeof__(&DNSServiceRefSockFD) tictactoe_DNSServiceRefSockFD;
typedef __typeof__(&DNSServiceProcessResult) tictactoe_DNSServiceProcessResult;
typedef __typeof__(&DNSServiceRefDeallocate) tictactoe_DNSServiceRefDeallocate;
typedef __typeof__(&DNSServiceUpdateRecord) tictactoe_DNSServiceUpdateRecord;
typedef __typeof__(&avahi_set_allocator) tictactoe_avahi_set_allocator;

// Avahi's compatibility library before 0.9 (Debian 12 ships 0.8) allocates each DNSServiceRef without zeroing it and
// sets only the callback of its own kind; when the daemon goes away, its client-failure handler calls whichever
// callback field is non-zero, so a query or resolve reference could jump to leftover heap bytes (a crash seen in the
// LAN lab: kill avahi-daemon while a game is being looked up). Upstream fixed it by zeroing the allocation
// (avahi/avahi#569); until then the app gives Avahi an allocator that zeroes every block. Call it once, with the
// loaded library's avahi_set_allocator, before the first dns_sd call; the structure must outlive the process (Avahi
// keeps the pointer).
static void *tictactoe_avahi_zeroed_malloc(size_t size) { return calloc(1, size == 0 ? 1 : size); }

static inline void tictactoe_avahi_zero_allocations(tictactoe_avahi_set_allocator set_allocator) {
    static const AvahiAllocator allocator = { tictactoe_avahi_zeroed_malloc, free, realloc, calloc };
    set_allocator(&allocator);
}
#endif
