#include <string.h>
#include "CCurl.h"

CURLcode afc_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode afc_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode afc_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode afc_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode afc_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode afc_easy_setopt_data_callback(CURL *handle, CURLoption option, afc_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode afc_easy_setopt_xferinfo_callback(CURL *handle, afc_xferinfo_callback value) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}

CURLcode afc_easy_setopt_sockopt_callback(CURL *handle, afc_sockopt_callback value) {
    return curl_easy_setopt(handle, CURLOPT_SOCKOPTFUNCTION, value);
}

CURLcode afc_easy_setopt_sshkey_callback(CURL *handle, afc_sshkey_callback value) {
    return curl_easy_setopt(handle, CURLOPT_SSH_KEYFUNCTION, value);
}

CURLcode afc_easy_setopt_debug_callback(CURL *handle, afc_debug_callback value) {
    return curl_easy_setopt(handle, CURLOPT_DEBUGFUNCTION, value);
}

CURLcode afc_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode afc_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode afc_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode afc_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode afc_easy_getinfo_socket(CURL *handle, CURLINFO info, curl_socket_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLMcode afc_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

CURLcode afc_message_result(const CURLMsg *message) {
    return message->data.result;
}

const char *afc_leaf_certificate_pem(CURL *handle) {
    struct curl_certinfo *info = NULL;
    if (curl_easy_getinfo(handle, CURLINFO_CERTINFO, &info) != CURLE_OK || info == NULL || info->num_of_certs < 1) {
        return NULL;
    }
    for (struct curl_slist *entry = info->certinfo[0]; entry != NULL; entry = entry->next) {
        if (strncmp(entry->data, "Cert:", 5) == 0) {
            return entry->data + 5;
        }
    }
    return NULL;
}
