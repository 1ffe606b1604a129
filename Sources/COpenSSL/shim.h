// OpenSSL's libcrypto, already loaded by libcurl: EVP digests at memory speed.
#include <openssl/evp.h>
