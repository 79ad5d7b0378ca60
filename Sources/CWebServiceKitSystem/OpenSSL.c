// Opens the system's OpenSSL at run time (CWebServiceKitOpenSSL.h). Linux only: elsewhere the
// library uses the platform's TLS through URLSession.
#include "CWebServiceKitOpenSSL.h"

#include <string.h>

#if defined(__linux__)
#include <dlfcn.h>
#include <stdio.h>

// libssl 3 first (Debian 12, Ubuntu 22.04 and later), then 1.1 (Debian 11, Ubuntu 20.04): the
// names .NET's System.Security.Cryptography.Native and curl's packages depend on.
static const char *const default_names[] = {"libssl.so.3", "libssl.so.1.1", NULL};

int wsk_openssl_load(wsk_openssl *api, const char *const *names, char *reason, size_t reason_length) {
    memset(api, 0, sizeof(*api));
    const char *const *candidates = names != NULL ? names : default_names;
    void *handle = NULL;
    const char *opened = NULL;
    for (size_t index = 0; candidates[index] != NULL && handle == NULL; index++) {
        handle = dlopen(candidates[index], RTLD_NOW | RTLD_LOCAL);
        opened = candidates[index];
    }
    if (handle == NULL) {
        snprintf(reason, reason_length, "no OpenSSL library could be opened (the last one tried: %s: %s)",
                 opened != NULL ? opened : "none", dlerror());
        return -1;
    }
    // A symbol of libcrypto is found through libssl's handle (dlsym searches its dependencies).
#define WSK_BIND(name)                                                                              \
    do {                                                                                            \
        *(void **)(&api->name) = dlsym(handle, #name);                                              \
        if (api->name == NULL) {                                                                    \
            snprintf(reason, reason_length, "%s has no function %s", opened, #name);               \
            dlclose(handle);                                                                        \
            memset(api, 0, sizeof(*api));                                                           \
            return -1;                                                                              \
        }                                                                                           \
    } while (0)
    WSK_BIND(OpenSSL_version_num);
    WSK_BIND(TLS_client_method);
    WSK_BIND(TLS_server_method);
    WSK_BIND(SSL_CTX_new);
    WSK_BIND(SSL_CTX_free);
    WSK_BIND(SSL_CTX_ctrl);
    WSK_BIND(SSL_CTX_set_options);
    WSK_BIND(SSL_CTX_set_default_verify_paths);
    WSK_BIND(SSL_CTX_load_verify_locations);
    WSK_BIND(SSL_CTX_set_verify);
    WSK_BIND(SSL_CTX_use_certificate_chain_file);
    WSK_BIND(SSL_CTX_use_PrivateKey_file);
    WSK_BIND(SSL_new);
    WSK_BIND(SSL_free);
    WSK_BIND(SSL_set_bio);
    WSK_BIND(SSL_set_connect_state);
    WSK_BIND(SSL_set_accept_state);
    WSK_BIND(SSL_do_handshake);
    WSK_BIND(SSL_read);
    WSK_BIND(SSL_pending);
    WSK_BIND(SSL_write);
    WSK_BIND(SSL_get_error);
    WSK_BIND(SSL_shutdown);
    WSK_BIND(SSL_ctrl);
    WSK_BIND(SSL_set1_host);
    WSK_BIND(SSL_get0_param);
    WSK_BIND(X509_VERIFY_PARAM_set1_ip_asc);
    WSK_BIND(SSL_get_verify_result);
    WSK_BIND(X509_verify_cert_error_string);
    WSK_BIND(SSL_set_alpn_protos);
    WSK_BIND(SSL_get0_alpn_selected);
    WSK_BIND(SSL_get_version);
    WSK_BIND(BIO_new);
    WSK_BIND(BIO_s_mem);
    WSK_BIND(BIO_read);
    WSK_BIND(BIO_write);
    WSK_BIND(BIO_ctrl);
    WSK_BIND(ERR_get_error);
    WSK_BIND(ERR_error_string_n);
    WSK_BIND(ERR_clear_error);
    WSK_BIND(d2i_X509);
    WSK_BIND(i2d_X509);
    WSK_BIND(X509_free);
    WSK_BIND(SSL_CTX_get_cert_store);
    WSK_BIND(X509_STORE_add_cert);
    WSK_BIND(SSL_get0_verified_chain);
    WSK_BIND(OPENSSL_sk_num);
    WSK_BIND(OPENSSL_sk_value);
    WSK_BIND(SSL_get_current_cipher);
    WSK_BIND(SSL_CIPHER_get_name);
    WSK_BIND(SSL_session_reused);
    WSK_BIND(SSL_CTX_sess_set_new_cb);
    WSK_BIND(SSL_set_session);
    WSK_BIND(SSL_SESSION_free);
    WSK_BIND(SSL_SESSION_is_resumable);
    WSK_BIND(SSL_set_ex_data);
    WSK_BIND(SSL_get_ex_data);
    WSK_BIND(BIO_new_mem_buf);
    WSK_BIND(BIO_free);
    WSK_BIND(PEM_read_bio_PrivateKey);
    WSK_BIND(EVP_PKEY_free);
    WSK_BIND(SSL_CTX_use_certificate);
    WSK_BIND(SSL_CTX_use_PrivateKey);
    WSK_BIND(SSL_CTX_check_private_key);
#undef WSK_BIND
    // Never closed: the functions stay valid for the life of the process.
    return 0;
}

#else

int wsk_openssl_load(wsk_openssl *api, const char *const *names, char *reason, size_t reason_length) {
    (void)names;
    memset(api, 0, sizeof(*api));
    if (reason_length > 0) {
        strncpy(reason, "OpenSSL is used on Linux only", reason_length - 1);
        reason[reason_length - 1] = 0;
    }
    return -1;
}

#endif
