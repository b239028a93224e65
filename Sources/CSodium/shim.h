#ifndef TICTACTOE_CSODIUM_SHIM_H
#define TICTACTOE_CSODIUM_SHIM_H
// libsodium (libsodium-dev, pkg-config libsodium): ristretto255, SHA-512, the CSPRNG, sodium_memzero.
// Only GamePairing imports this module.
#include <sodium.h>
#endif
