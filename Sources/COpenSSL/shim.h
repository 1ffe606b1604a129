// OpenSSL's libcrypto, already loaded by libcurl: EVP digests at memory speed, and X.509
// parsing for certificate pins.
#include <openssl/evp.h>
#include <openssl/x509.h>
