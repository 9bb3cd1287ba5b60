// OpenSSL's libcrypto, for SHA-256 only (and its version string for --version) (EVP digests use the CPU's SHA extensions when present).
#ifndef JOURNALMEDIA_CCRYPTO_SHIM_H
#define JOURNALMEDIA_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/crypto.h>
#endif
