// The system's OpenSSL, opened at run time with dlopen: no OpenSSL header at build time, nothing
// linked. Every OpenSSL type is an opaque pointer here; each function is looked up by name in
// libssl (and, through it, libcrypto) and called through this table. Macros of OpenSSL's headers
// (SSL_CTX_set_min_proto_version, BIO_pending, SSL_set_tlsext_host_name) are their *_ctrl calls.
#ifndef CWEBSERVICEKITOPENSSL_H
#define CWEBSERVICEKITOPENSSL_H

#include <stddef.h>
#include <stdint.h>

typedef struct wsk_openssl {
    unsigned long (*OpenSSL_version_num)(void);
    const void *(*TLS_client_method)(void);
    const void *(*TLS_server_method)(void);
    void *(*SSL_CTX_new)(const void *method);
    void (*SSL_CTX_free)(void *context);
    long (*SSL_CTX_ctrl)(void *context, int command, long argument, void *pointer);
    uint64_t (*SSL_CTX_set_options)(void *context, uint64_t options);
    int (*SSL_CTX_set_default_verify_paths)(void *context);
    int (*SSL_CTX_load_verify_locations)(void *context, const char *file, const char *directory);
    void (*SSL_CTX_set_verify)(void *context, int mode, void *callback);
    int (*SSL_CTX_use_certificate_chain_file)(void *context, const char *file);
    int (*SSL_CTX_use_PrivateKey_file)(void *context, const char *file, int type);
    void *(*SSL_new)(void *context);
    void (*SSL_free)(void *ssl);
    void (*SSL_set_bio)(void *ssl, void *readBIO, void *writeBIO);
    void (*SSL_set_connect_state)(void *ssl);
    void (*SSL_set_accept_state)(void *ssl);
    int (*SSL_do_handshake)(void *ssl);
    int (*SSL_read)(void *ssl, void *buffer, int count);
    int (*SSL_pending)(const void *ssl);
    int (*SSL_write)(void *ssl, const void *buffer, int count);
    int (*SSL_get_error)(const void *ssl, int result);
    int (*SSL_shutdown)(void *ssl);
    long (*SSL_ctrl)(void *ssl, int command, long argument, void *pointer);
    int (*SSL_set1_host)(void *ssl, const char *host);
    void *(*SSL_get0_param)(void *ssl);
    int (*X509_VERIFY_PARAM_set1_ip_asc)(void *parameters, const char *address);
    long (*SSL_get_verify_result)(const void *ssl);
    const char *(*X509_verify_cert_error_string)(long code);
    int (*SSL_set_alpn_protos)(void *ssl, const unsigned char *protocols, unsigned int length);
    void (*SSL_get0_alpn_selected)(const void *ssl, const unsigned char **protocol, unsigned int *length);
    const char *(*SSL_get_version)(const void *ssl);
    void *(*BIO_new)(const void *method);
    const void *(*BIO_s_mem)(void);
    int (*BIO_read)(void *bio, void *buffer, int count);
    int (*BIO_write)(void *bio, const void *buffer, int count);
    long (*BIO_ctrl)(void *bio, int command, long argument, void *pointer);
    unsigned long (*ERR_get_error)(void);
    void (*ERR_error_string_n)(unsigned long error, char *buffer, size_t length);
    void (*ERR_clear_error)(void);
    // Server trust (ServerTrustPolicy): further trust anchors, and the verified chain for pins.
    void *(*d2i_X509)(void **certificate, const unsigned char **bytes, long length);
    int (*i2d_X509)(const void *certificate, unsigned char **bytes);
    void (*X509_free)(void *certificate);
    void *(*SSL_CTX_get_cert_store)(const void *context);
    int (*X509_STORE_add_cert)(void *store, void *certificate);
    void *(*SSL_get0_verified_chain)(const void *ssl);
    int (*OPENSSL_sk_num)(const void *stack);
    void *(*OPENSSL_sk_value)(const void *stack, int index);
    // What a connection negotiated, for the call's metrics.
    const void *(*SSL_get_current_cipher)(const void *ssl);
    const char *(*SSL_CIPHER_get_name)(const void *cipher);
    int (*SSL_session_reused)(const void *ssl);
    // Session resumption: the sessions (tickets) a server gives, offered again on the next connection.
    void (*SSL_CTX_sess_set_new_cb)(void *context, int (*callback)(void *ssl, void *session));
    int (*SSL_set_session)(void *ssl, void *session);
    void (*SSL_SESSION_free)(void *session);
    int (*SSL_SESSION_is_resumable)(const void *session);
    int (*SSL_set_ex_data)(void *ssl, int index, void *data);
    void *(*SSL_get_ex_data)(const void *ssl, int index);
    // A client identity (mutual TLS): its certificates and its private key, read from memory.
    void *(*BIO_new_mem_buf)(const void *bytes, int length);
    int (*BIO_free)(void *bio);
    void *(*PEM_read_bio_PrivateKey)(void *bio, void **key, void *callback, void *passphrase);
    void (*EVP_PKEY_free)(void *key);
    int (*SSL_CTX_use_certificate)(void *context, void *certificate);
    int (*SSL_CTX_use_PrivateKey)(void *context, void *key);
    int (*SSL_CTX_check_private_key)(const void *context);
} wsk_openssl;

// Opens libssl (libssl.so.3, else libssl.so.1.1) and fills `api`. Returns 0 when every function
// was found; otherwise writes why into `reason` (`reason_length` bytes at most, terminated) and
// returns -1. `names` is a list of file names to try, NULL-terminated; NULL for the default list.
int wsk_openssl_load(wsk_openssl *api, const char *const *names, char *reason, size_t reason_length);

#endif
