// Typed, non-variadic front doors to libcurl's variadic calls.
// Swift cannot call curl_easy_setopt/curl_easy_getinfo/curl_multi_setopt directly;
// one wrapper per value type keeps each call type-checked on the Swift side.
#ifndef AFGET_CCURL_H
#define AFGET_CCURL_H

#include <curl/curl.h>

typedef size_t (*afc_data_callback)(char *buffer, size_t size, size_t count, void *userdata);
typedef int (*afc_xferinfo_callback)(void *userdata, curl_off_t dltotal, curl_off_t dlnow,
                                     curl_off_t ultotal, curl_off_t ulnow);
typedef int (*afc_debug_callback)(CURL *handle, curl_infotype type, char *data, size_t size,
                                  void *userdata);
typedef int (*afc_sockopt_callback)(void *userdata, curl_socket_t socket, curlsocktype purpose);
/// An SSH host key against known_hosts (CURLOPT_SSH_KEYFUNCTION): the key of the known_hosts
/// entry, if any, the server's key (raw bytes), and how they compare.
typedef int (*afc_sshkey_callback)(CURL *handle, const struct curl_khkey *known, const struct curl_khkey *found,
                                   enum curl_khmatch match, void *userdata);

CURLcode afc_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode afc_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
CURLcode afc_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode afc_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode afc_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode afc_easy_setopt_data_callback(CURL *handle, CURLoption option, afc_data_callback value);
CURLcode afc_easy_setopt_xferinfo_callback(CURL *handle, afc_xferinfo_callback value);
CURLcode afc_easy_setopt_debug_callback(CURL *handle, afc_debug_callback value);
CURLcode afc_easy_setopt_sockopt_callback(CURL *handle, afc_sockopt_callback value);
CURLcode afc_easy_setopt_sshkey_callback(CURL *handle, afc_sshkey_callback value);

CURLcode afc_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode afc_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode afc_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value);
CURLcode afc_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value);
CURLcode afc_easy_getinfo_socket(CURL *handle, CURLINFO info, curl_socket_t *value);

CURLMcode afc_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

/// The result code of a CURLMSG_DONE message (a union member Swift reads awkwardly).
CURLcode afc_message_result(const CURLMsg *message);

/// The PEM of the server's leaf certificate from CURLINFO_CERTINFO (CURLOPT_CERTINFO must be
/// set), or NULL when there is none (no TLS handshake on this transfer).
const char *afc_leaf_certificate_pem(CURL *handle);

#endif
