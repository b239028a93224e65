#ifndef TICTACTOE_CDNSSD_SHIM_H
#define TICTACTOE_CDNSSD_SHIM_H
// Avahi's Bonjour compatibility library (libavahi-compat-libdnssd-dev, pkg-config avahi-compat-libdns_sd).
#include <dns_sd.h>
#endif
