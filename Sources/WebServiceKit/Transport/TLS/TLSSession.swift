// The C shim declares OpenSSL's function table; a build without it (the fuzz binary) has no TLS layer.
#if canImport(CWebServiceKitSystem)
    import CWebServiceKitSystem
    import Foundation

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// One TLS connection's state, over two memory buffers: the bytes that came from the network go
    /// in (``receive(_:)``), the records to send come out (``takeOutput()``), and plaintext goes
    /// through ``write(_:)`` and ``read(into:)``. No socket, no thread, no clock: whoever owns the
    /// connection (the event loop's driver, a test, the fuzz target) moves the bytes, so the same
    /// code runs over a socket and in memory.
    ///
    /// A client session verifies the peer as its context says ( ``TLSContext``: never off) and the
    /// host name or IP address it was made for, sends SNI for a name (never for an address, RFC 6066
    /// §3), and offers the context's ALPN list.
    ///
    /// Not thread-safe: one connection uses it at a time.
    final class TLSSession {
        let context: TLSContext
        private let ssl: UnsafeMutableRawPointer
        /// What the network sent, for OpenSSL to read.
        private let input: UnsafeMutableRawPointer
        /// What OpenSSL wrote, for the network.
        private let output: UnsafeMutableRawPointer
        private var api: wsk_openssl { context.library.api }
        /// Whether the peer's side of the connection ended (no more bytes will come).
        private var inputEnded = false
        private var closeSent = false
        /// Whether a fatal error ended the session: OpenSSL must not shut it down then.
        private var failed = false

        /// Whether the handshake finished, and the server passed every check.
        private(set) var isEstablished = false
        /// What the handshake negotiated, for the calls' metrics: read from OpenSSL once, when it
        /// is done; `nil` before.
        private(set) var negotiated: CallMetrics.TLS?
        /// A session the server gave before the handshake finished (TLS 1.2), owned here until
        /// the server passes the pin check; then the context keeps it.
        private var pendingSession: UnsafeMutableRawPointer?

        /// Holds `session` (its reference now this session's) until the handshake's end.
        func holdUntilEstablished(_ session: UnsafeMutableRawPointer) {
            if let old = pendingSession { api.SSL_SESSION_free(old) }
            pendingSession = session
        }

        /// The side of the connection a session plays.
        enum Role: Equatable {
            /// A client of `host`: a DNS name or an IP address (an IPv6 one with or without brackets).
            case client(host: String)
            /// A server (the tests' peer, the fuzz target's).
            case server
        }

        /// The peer's key in the context's store of sessions to resume (`host:port`); `nil`: the
        /// session is neither resumed nor kept.
        let peer: String?

        /// A session for `role`; a client's with a `peer` key resumes the session the context kept
        /// for that peer, if any, and keeps the ones the server gives.
        init(context: TLSContext, role: Role, peer: String? = nil) throws(TLSFailure) {
            self.context = context
            self.peer = peer
            let api = context.library.api
            api.ERR_clear_error()
            guard let ssl = api.SSL_new(context.pointer) else {
                throw TLSFailure(.unavailable, "SSL_new failed: \(context.library.drainErrors())")
            }
            guard let input = api.BIO_new(api.BIO_s_mem()), let output = api.BIO_new(api.BIO_s_mem()) else {
                api.SSL_free(ssl)
                throw TLSFailure(.unavailable, "BIO_new failed")
            }
            // An empty buffer means "more to come", not the end (BIO_set_mem_eof_return(bio, -1)).
            _ = api.BIO_ctrl(input, Self.setMemoryEOFReturn, -1, nil)
            _ = api.BIO_ctrl(output, Self.setMemoryEOFReturn, -1, nil)
            // The session owns both buffers from here: SSL_free frees them.
            api.SSL_set_bio(ssl, input, output)
            self.ssl = ssl
            self.input = input
            self.output = output
            switch role {
            case .server:
                api.SSL_set_accept_state(ssl)
            case .client(let host):
                api.SSL_set_connect_state(ssl)
                try configureClient(host: host)
                if let peer, context.resumesSessions {
                    // The context's new-session callback finds this session through its data.
                    _ = api.SSL_set_ex_data(ssl, 0, Unmanaged.passUnretained(self).toOpaque())
                    context.offerKeptSession(for: peer, to: ssl)
                }
            }
        }

        deinit {
            if let pendingSession { api.SSL_SESSION_free(pendingSession) }
            api.SSL_free(ssl)
        }

        private func configureClient(host: String) throws(TLSFailure) {
            let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            if Self.isIPAddress(name) {
                // An address is checked against the certificate's IP address entries; no SNI.
                guard api.X509_VERIFY_PARAM_set1_ip_asc(api.SSL_get0_param(ssl), name) == 1 else {
                    throw TLSFailure(.unavailable, "the address \(name) could not be set for verification")
                }
            } else {
                let named = name.withCString { text in
                    api.SSL_set1_host(ssl, text) == 1
                        && api.SSL_ctrl(
                            ssl, Self.setHostName, Self.hostNameType, UnsafeMutableRawPointer(mutating: text)) == 1
                }
                guard named else {
                    throw TLSFailure(
                        .unavailable, "the host name \(name) could not be set: \(context.library.drainErrors())")
                }
            }
            let alpn = context.alpn
            if !alpn.isEmpty {
                // SSL_set_alpn_protos returns 0 on success.
                guard
                    alpn.withUnsafeBufferPointer({ api.SSL_set_alpn_protos(ssl, $0.baseAddress, UInt32($0.count)) })
                        == 0
                else { throw TLSFailure(.unavailable, "the ALPN list could not be set") }
            }
        }

        /// Gives the session bytes that came from the network.
        func receive(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            var offset = 0
            while offset < bytes.count {
                // A memory buffer takes everything; a write is at most Int32.max.
                let count = Int32(clamping: bytes.count - offset)
                let written = api.BIO_write(input, base + offset, count)
                guard written > 0 else { return }
                offset += Int(written)
            }
        }

        /// Says the peer's side ended: a read that needs more bytes now fails as ``TLSFailure/Kind/broken``
        /// (no `close_notify` came, so what was read may be cut short).
        func receiveEnd() { inputEnded = true }

        /// The records waiting to be sent, taken.
        func takeOutput() -> [UInt8] {
            let pending = Int(api.BIO_ctrl(output, Self.pending, 0, nil))
            guard pending > 0 else { return [] }
            var bytes = [UInt8](repeating: 0, count: pending)
            let read = bytes.withUnsafeMutableBytes { api.BIO_read(output, $0.baseAddress, Int32(clamping: pending)) }
            bytes.removeLast(max(0, pending - Int(max(read, 0))))
            return bytes
        }

        /// Whether received bytes wait to be read: plaintext OpenSSL decrypted, or records it has
        /// not read yet. A loop that waits for the socket to be readable must read these first.
        var hasBufferedInput: Bool { api.SSL_pending(ssl) > 0 || api.BIO_ctrl(input, Self.pending, 0, nil) > 0 }

        /// Whether records wait to be sent.
        var hasOutput: Bool { api.BIO_ctrl(output, Self.pending, 0, nil) > 0 }

        /// Moves the handshake on with the bytes received so far: `true` once it is done, `false`
        /// when it needs more from the peer (send ``takeOutput()`` first).
        func handshake() throws(TLSFailure) -> Bool {
            guard !isEstablished else { return true }
            api.ERR_clear_error()
            let result = api.SSL_do_handshake(ssl)
            if result == 1 {
                // A resumed session was pinned when it was made, in this context (one per
                // policy): resumption proves the server holds it (RFC 8446 §2.2), and OpenSSL
                // keeps no verified chain for it.
                if !isResumed, let policy = context.pinning,
                    let refusal = policy.pinRefusal(validatedChain: verifiedChain())
                {
                    failed = true
                    throw TLSFailure(.untrusted, "the server's certificate was refused: \(refusal)")
                }
                isEstablished = true
                negotiated = CallMetrics.TLS(
                    protocolVersion: protocolVersion, cipher: cipher, sessionResumed: isResumed,
                    applicationProtocol: negotiatedProtocol)
                // A session the server gave during the handshake (TLS 1.2) is kept only now that
                // the server passed.
                if let pending = pendingSession, let peer {
                    pendingSession = nil
                    context.keep(TLSContext.KeptSession(pointer: pending), for: peer)
                }
                return true
            }
            switch api.SSL_get_error(ssl, result) {
            case Self.wantRead, Self.wantWrite:
                if inputEnded {
                    failed = true
                    throw TLSFailure(.handshake, "the server closed the connection during the TLS handshake")
                }
                return false
            default:
                failed = true
                throw handshakeFailure()
            }
        }

        /// The chain OpenSSL verified, leaf first, as DER; empty before the handshake.
        private func verifiedChain() -> [Data] {
            guard let stack = api.SSL_get0_verified_chain(ssl) else { return [] }
            var chain: [Data] = []
            for index in 0..<max(0, api.OPENSSL_sk_num(stack)) {
                guard let certificate = api.OPENSSL_sk_value(stack, index) else { continue }
                let length = api.i2d_X509(certificate, nil)
                guard length > 0 else { continue }
                var der = Data(count: Int(length))
                let written = der.withUnsafeMutableBytes { bytes -> Int32 in
                    var cursor = bytes.bindMemory(to: UInt8.self).baseAddress
                    return api.i2d_X509(certificate, &cursor)
                }
                if written == length { chain.append(der) }
            }
            return chain
        }

        /// Encrypts `plaintext` into records (``takeOutput()`` has them). The handshake must be done.
        func write(_ plaintext: UnsafeRawBufferPointer) throws(TLSFailure) {
            guard let base = plaintext.baseAddress, !plaintext.isEmpty else { return }
            var offset = 0
            while offset < plaintext.count {
                api.ERR_clear_error()
                let count = Int32(clamping: plaintext.count - offset)
                let written = api.SSL_write(ssl, base + offset, count)
                guard written > 0 else {
                    failed = true
                    throw TLSFailure(.broken, "a TLS record could not be written: \(errorText(for: written))")
                }
                offset += Int(written)
            }
        }

        /// What a read found.
        enum ReadResult: Equatable {
            /// This many plaintext bytes were put at the start of the buffer.
            case bytes(Int)
            /// Nothing yet: more bytes from the peer are needed.
            case needsInput
            /// The peer sent `close_notify`: its data is complete.
            case closed
        }

        /// Decrypts what arrived into `buffer`.
        func read(into buffer: UnsafeMutableRawBufferPointer) throws(TLSFailure) -> ReadResult {
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return .needsInput }
            api.ERR_clear_error()
            let result = api.SSL_read(ssl, base, Int32(clamping: buffer.count))
            if result > 0 { return .bytes(Int(result)) }
            switch api.SSL_get_error(ssl, result) {
            case Self.wantRead, Self.wantWrite:
                guard !inputEnded else {
                    failed = true
                    throw TLSFailure(
                        .broken, "the connection ended without TLS close_notify: the data may be cut short")
                }
                return .needsInput
            case Self.zeroReturn:
                return .closed
            default:
                failed = true
                let text = errorText(for: result)
                // TLS 1.3 servers refuse a missing or unknown client certificate after the
                // handshake, with an alert the first read meets (RFC 8446 §4.4.2.4).
                throw TLSFailure(
                    Self.refusesClientCertificate(text) ? .clientCertificateRequired : .broken,
                    "a TLS record could not be read: \(text)")
            }
        }

        /// Queues `close_notify` (once) for ``takeOutput()``; nothing after a fatal error, when
        /// OpenSSL must not shut the session down.
        func close() {
            guard isEstablished, !closeSent, !failed else { return }
            closeSent = true
            api.ERR_clear_error()
            _ = api.SSL_shutdown(ssl)
        }

        /// The protocol ALPN chose (`http/1.1`, `h2`), if any.
        var negotiatedProtocol: String? {
            var pointer: UnsafePointer<UInt8>?
            var length: UInt32 = 0
            api.SSL_get0_alpn_selected(ssl, &pointer, &length)
            guard let pointer, length > 0 else { return nil }
            return String(decoding: UnsafeBufferPointer(start: pointer, count: Int(length)), as: UTF8.self)
        }

        /// The TLS version in use: `TLSv1.3`.
        var protocolVersion: String {
            guard let text = api.SSL_get_version(ssl) else { return "unknown" }
            return String(cString: text)
        }

        /// The cipher suite in use, in OpenSSL's name (`TLS_AES_256_GCM_SHA384`).
        var cipher: String {
            guard let cipher = api.SSL_get_current_cipher(ssl), let name = api.SSL_CIPHER_get_name(cipher) else {
                return "unknown"
            }
            return String(cString: name)
        }

        /// Whether the handshake resumed an earlier session.
        var isResumed: Bool { api.SSL_session_reused(ssl) == 1 }

        /// Why the handshake failed: the verification's result when it refused the peer, else
        /// OpenSSL's queued errors.
        private func handshakeFailure() -> TLSFailure {
            let verification = api.SSL_get_verify_result(ssl)
            if verification != 0 {
                let text = api.X509_verify_cert_error_string(verification).map { String(cString: $0) } ?? "unknown"
                _ = context.library.drainErrors()
                return .verification(Int(verification), text: text)
            }
            let errors = context.library.drainErrors()
            if Self.answeredInTheClear(errors) {
                return TLSFailure(
                    .handshake,
                    "the TLS handshake failed: the server did not answer in TLS; if this port speaks plain "
                        + "http, use an http:// URL for it (OpenSSL: \(errors))")
            }
            return TLSFailure(
                Self.refusesClientCertificate(errors) ? .clientCertificateRequired : .handshake,
                "the TLS handshake failed: \(errors.isEmpty ? "the connection was refused" : errors)")
        }

        /// Whether OpenSSL's `errors` say the server answered the ClientHello with something that
        /// is not TLS: an HTTP answer reads as a record of an unknown version (`wrong version
        /// number`) or a length no record may have.
        static func answeredInTheClear(_ errors: String) -> Bool {
            ["wrong version number", "packet length too long", "http request"].contains { errors.contains($0) }
        }

        /// Whether OpenSSL's `errors` are a server's alert refusing the client's certificate (or
        /// its absence): `certificate required` (TLS 1.3), `bad certificate`, `unknown ca`.
        static func refusesClientCertificate(_ errors: String) -> Bool {
            ["alert certificate required", "alert bad certificate", "alert unknown ca"].contains { errors.contains($0) }
        }

        private func errorText(for result: Int32) -> String {
            let code = api.SSL_get_error(ssl, result)
            let errors = context.library.drainErrors()
            return errors.isEmpty ? "SSL error \(code)" : errors
        }

        /// Whether `text` is an IPv4 or IPv6 address, read as `inet_pton` reads them.
        static func isIPAddress(_ text: String) -> Bool {
            var address = in6_addr()
            return inet_pton(AF_INET, text, &address) == 1 || inet_pton(AF_INET6, text, &address) == 1
        }

        // OpenSSL's constants (ssl.h, bio.h, tls1.h), fixed across 1.1.1 and 3.x.
        static let wantRead: Int32 = 2  // SSL_ERROR_WANT_READ
        static let wantWrite: Int32 = 3  // SSL_ERROR_WANT_WRITE
        static let zeroReturn: Int32 = 6  // SSL_ERROR_ZERO_RETURN
        static let pending: Int32 = 10  // BIO_CTRL_PENDING
        static let setMemoryEOFReturn: Int32 = 130  // BIO_C_SET_BUF_MEM_EOF_RETURN
        static let setHostName: Int32 = 55  // SSL_CTRL_SET_TLSEXT_HOSTNAME
        static let hostNameType = 0  // TLSEXT_NAMETYPE_host_name
    }
#endif
