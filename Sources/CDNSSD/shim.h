#ifndef TICTACTOE_CDNSSD_SHIM_H
#define TICTACTOE_CDNSSD_SHIM_H
// Avahi's Bonjour compatibility library (libavahi-compat-libdnssd-dev, pkg-config avahi-compat-libdns_sd).
#include <dns_sd.h>
#include <stdlib.h>
#include <avahi-common/malloc.h>

// Avahi's compatibility library before 0.9 (Debian 12 ships 0.8) allocates each DNSServiceRef without zeroing it and
// sets only the callback of its own kind; when the daemon goes away, its client-failure handler calls whichever
// callback field is non-zero, so a query or resolve reference could jump to leftover heap bytes (a crash seen in the
// LAN lab: kill avahi-daemon while a game is being looked up). Upstream fixed it by zeroing the allocation
// (avahi/avahi#569); until then the app gives Avahi an allocator that zeroes every block. Call it once, before the
// first dns_sd call; the structure must outlive the process (Avahi keeps the pointer).
static void *tictactoe_avahi_zeroed_malloc(size_t size) { return calloc(1, size == 0 ? 1 : size); }

static inline void tictactoe_avahi_zero_allocations(void) {
    static const AvahiAllocator allocator = { tictactoe_avahi_zeroed_malloc, free, realloc, calloc };
    avahi_set_allocator(&allocator);
}
#endif
