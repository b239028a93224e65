#ifndef TICTACTOE_CSODIUM_SHIM_H
#define TICTACTOE_CSODIUM_SHIM_H
// libsodium (libsodium-dev; linked by the modulemap, from its archive in the release build): ristretto255,
// SHA-512, the CSPRNG, sodium_memzero.
// Only GamePairing imports this module.
#include <sodium.h>
#endif
