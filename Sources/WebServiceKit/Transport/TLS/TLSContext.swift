// The C shim declares OpenSSL's function table; a build without it (the fuzz binary) has no TLS layer.
#if canImport(CWebServiceKitSystem)
    import CWebServiceKitSystem

    /// One OpenSSL `SSL_CTX`: the settings every TLS connection made from it shares. Verification is
    /// never off: the peer's chain must end in a trusted root and name the host. TLS 1.2 is the
    /// lowest version, and renegotiation is refused.
    ///
    /// Safe to share between threads (OpenSSL locks a context's shared state itself); each
    /// connection makes its own ``TLSSession``.
    final class TLSContext: @unchecked Sendable {
        let library: OpenSSLLibrary
        let pointer: UnsafeMutableRawPointer

        /// Where a client's trust comes from.
        struct Trust: Sendable, Equatable {
            /// The policy for the hosts the context serves (``ServerTrustPolicy/policy(forHost:)``):
            /// the system's store unless it trusts only its own authorities (OpenSSL's default
            /// paths, which honour `SSL_CERT_FILE` and `SSL_CERT_DIR`, as curl does), its
            /// authorities as further anchors, its pins checked after the handshake.
            var policy: ServerTrustPolicy = .system
            /// A test-only switch that turns verification (and pins) off, so that a test of a
            /// refusal can show it fails without the check (its twin). Never set outside tests.
            var testOnlySkipsVerification = false
        }

        /// The ALPN list each client session offers, in wire form (RFC 7301 §3.1); empty for none.
        let alpn: [UInt8]
        /// The policy a client session checks the server's verified chain against once the
        /// handshake is done (its pins); `nil` when verification is off (tests only) or for a server.
        private(set) var pinning: ServerTrustPolicy?

        private init(library: OpenSSLLibrary, pointer: UnsafeMutableRawPointer, alpn: [UInt8]) {
            self.library = library
            self.pointer = pointer
            self.alpn = alpn
        }

        deinit {
            for session in keptSessions.withLock({ $0.sessions.values }) {
                library.api.SSL_SESSION_free(session.pointer)
            }
            library.api.SSL_CTX_free(pointer)
        }

        // MARK: - Session resumption

        /// A session a server gave (a TLS 1.3 ticket, a TLS 1.2 session), owned by the store.
        struct KeptSession: @unchecked Sendable {
            let pointer: UnsafeMutableRawPointer
        }

        /// The sessions kept for resumption, by peer (`host:port`): the latest one each server
        /// gave, offered once (a TLS 1.3 ticket is for one use, RFC 8446 §C.4), at most
        /// ``keptSessionLimit`` peers (the oldest peer's goes first).
        private let keptSessions = Locked<(sessions: [String: KeptSession], order: [String])>(([:], []))

        /// The most peers whose sessions a context keeps.
        static let keptSessionLimit = 256

        /// Whether client sessions of this context resume and keep sessions: when the library is
        /// the process's shared one, whose functions the new-session callback calls.
        private(set) var resumesSessions = false

        /// Turns resumption on: OpenSSL hands each session a server gives to
        /// ``newSessionCallback`` instead of its own cache (`SSL_SESS_CACHE_CLIENT |
        /// SSL_SESS_CACHE_NO_INTERNAL`).
        private func enableResumption() {
            guard case .success(let shared) = OpenSSLLibrary.shared,
                unsafeBitCast(shared.api.SSL_get_ex_data, to: UnsafeRawPointer?.self)
                    == unsafeBitCast(library.api.SSL_get_ex_data, to: UnsafeRawPointer?.self)
            else { return }
            _ = library.api.SSL_CTX_ctrl(pointer, Self.setSessionCacheMode, Self.clientCacheWithoutInternalStore, nil)
            library.api.SSL_CTX_sess_set_new_cb(pointer, Self.newSessionCallback)
            resumesSessions = true
        }

        /// OpenSSL's new-session callback: keeps `session` for the peer of the ``TLSSession``
        /// whose data `ssl` carries. Returns 1 when the store took the reference.
        private static let newSessionCallback:
            @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32 = { ssl, session in
                guard let ssl, let session, case .success(let library) = OpenSSLLibrary.shared,
                    let owner = library.api.SSL_get_ex_data(ssl, 0)
                else { return 0 }
                let tls = Unmanaged<TLSSession>.fromOpaque(owner).takeUnretainedValue()
                guard let peer = tls.peer, library.api.SSL_SESSION_is_resumable(session) == 1 else { return 0 }
                // Only a session of a server that passed every check is offered again: one given
                // during the handshake waits for its end (``TLSSession/handshake()``).
                if tls.isEstablished {
                    tls.context.keep(KeptSession(pointer: session), for: peer)
                } else {
                    tls.holdUntilEstablished(session)
                }
                return 1
            }

        /// Keeps `session` for `peer`, in place of the one kept before.
        func keep(_ session: KeptSession, for peer: String) {
            let dropped = keptSessions.withLock { store -> [KeptSession] in
                var dropped: [KeptSession] = []
                if let old = store.sessions.updateValue(session, forKey: peer) {
                    dropped.append(old)
                    store.order.removeAll { $0 == peer }
                }
                store.order.append(peer)
                while store.order.count > Self.keptSessionLimit {
                    let oldest = store.order.removeFirst()
                    if let old = store.sessions.removeValue(forKey: oldest) { dropped.append(old) }
                }
                return dropped
            }
            for old in dropped { library.api.SSL_SESSION_free(old.pointer) }
        }

        /// Offers the session kept for `peer`, if any, to the new connection `ssl`, and forgets it
        /// (the connection takes its own reference).
        func offerKeptSession(for peer: String, to ssl: UnsafeMutableRawPointer) {
            let kept = keptSessions.withLock { store -> KeptSession? in
                guard let kept = store.sessions.removeValue(forKey: peer) else { return nil }
                store.order.removeAll { $0 == peer }
                return kept
            }
            guard let kept else { return }
            _ = library.api.SSL_set_session(ssl, kept.pointer)
            library.api.SSL_SESSION_free(kept.pointer)
        }

        /// A client context trusting `trust`, offering `alpn` (in order of preference).
        static func client(trust: Trust, alpn: [String] = ["http/1.1"], library: OpenSSLLibrary) throws(TLSFailure)
            -> TLSContext
        {
            let context = try make(library.api.TLS_client_method(), alpn: alpnWire(alpn), library: library)
            let api = library.api
            let policy = trust.policy
            if !trust.testOnlySkipsVerification {
                api.SSL_CTX_set_verify(context.pointer, Self.verifyPeer, nil)
                context.pinning = policy.acceptedPins.isEmpty ? nil : policy
            }
            if policy.usesSystemRoots, api.SSL_CTX_set_default_verify_paths(context.pointer) != 1 {
                throw TLSFailure(
                    .unavailable, "the system's certificate store could not be read: \(library.drainErrors())")
            }
            try context.addAuthorities(policy.additionalCertificateAuthorities)
            if let identity = policy.clientIdentity { try context.use(identity) }
            context.enableResumption()
            return context
        }

        /// Presents `identity` to servers that ask for a client certificate: its certificate, its
        /// intermediates, and its key, which OpenSSL decrypts with the passphrase.
        private func use(_ identity: ClientIdentity) throws(TLSFailure) {
            let api = library.api
            for (index, certificate) in identity.certificates.enumerated() {
                guard let x509 = decode(certificate) else {
                    throw TLSFailure(
                        .identity,
                        "the client identity's certificate could not be read by OpenSSL: \(library.drainErrors())")
                }
                if index == 0 {
                    defer { api.X509_free(x509) }
                    guard api.SSL_CTX_use_certificate(pointer, x509) == 1 else {
                        throw TLSFailure(.identity, "the client certificate was not taken: \(library.drainErrors())")
                    }
                } else if api.SSL_CTX_ctrl(pointer, Self.addExtraChainCertificate, 0, x509) != 1 {
                    // The context owns an intermediate once added.
                    api.X509_free(x509)
                    throw TLSFailure(.identity, "an intermediate was not taken: \(library.drainErrors())")
                }
            }
            let key = identity.privateKeyPEM.utf8CString.withUnsafeBytes { text -> UnsafeMutableRawPointer? in
                guard let bio = api.BIO_new_mem_buf(text.baseAddress, Int32(clamping: text.count - 1)) else {
                    return nil
                }
                defer { _ = api.BIO_free(bio) }
                // Without a callback, the last argument is the passphrase (PEM_read_bio_PrivateKey).
                guard let passphrase = identity.passphrase else {
                    return api.PEM_read_bio_PrivateKey(bio, nil, nil, nil)
                }
                return passphrase.withCString {
                    api.PEM_read_bio_PrivateKey(bio, nil, nil, UnsafeMutableRawPointer(mutating: $0))
                }
            }
            guard let key else {
                _ = library.drainErrors()
                throw TLSFailure(
                    .identity,
                    "the client identity's private key could not be read"
                        + (identity.passphrase == nil
                            ? " (is it encrypted? give its passphrase)" : " (a wrong passphrase?)"))
            }
            defer { api.EVP_PKEY_free(key) }
            guard api.SSL_CTX_use_PrivateKey(pointer, key) == 1, api.SSL_CTX_check_private_key(pointer) == 1 else {
                _ = library.drainErrors()
                throw TLSFailure(.identity, "the client identity's private key is not the certificate's")
            }
        }

        /// An OpenSSL `X509` of `certificate`, for the caller to free; `nil` when OpenSSL cannot read it.
        private func decode(_ certificate: X509Certificate) -> UnsafeMutableRawPointer? {
            certificate.der.withUnsafeBytes { bytes -> UnsafeMutableRawPointer? in
                var cursor = bytes.bindMemory(to: UInt8.self).baseAddress.map { UnsafePointer($0) }
                return library.api.d2i_X509(nil, &cursor, bytes.count)
            }
        }

        /// Adds `authorities` to the context's store of trust anchors.
        private func addAuthorities(_ authorities: [X509Certificate]) throws(TLSFailure) {
            let api = library.api
            guard !authorities.isEmpty else { return }
            guard let store = api.SSL_CTX_get_cert_store(pointer) else {
                throw TLSFailure(.unavailable, "the context has no certificate store")
            }
            for authority in authorities {
                guard let certificate = decode(authority) else {
                    throw TLSFailure(
                        .untrusted,
                        "a certificate authority of the policy could not be read by OpenSSL: \(library.drainErrors())")
                }
                defer { api.X509_free(certificate) }
                // The store takes its own reference.
                guard api.X509_STORE_add_cert(store, certificate) == 1 else {
                    throw TLSFailure(
                        .untrusted,
                        "a certificate authority of the policy could not be trusted: \(library.drainErrors())")
                }
            }
        }

        /// A server context with `chainFile` and `keyFile` (PEM): for the tests' in-process peer and
        /// the fuzz target.
        static func server(chainFile: String, keyFile: String, library: OpenSSLLibrary) throws(TLSFailure) -> TLSContext
        {
            let context = try make(library.api.TLS_server_method(), alpn: [], library: library)
            let api = library.api
            guard api.SSL_CTX_use_certificate_chain_file(context.pointer, chainFile) == 1,
                api.SSL_CTX_use_PrivateKey_file(context.pointer, keyFile, 1) == 1
            else {
                throw TLSFailure(
                    .unavailable, "the server's certificate or key could not be read: \(library.drainErrors())")
            }
            return context
        }

        private static func make(_ method: UnsafeRawPointer?, alpn: [UInt8], library: OpenSSLLibrary)
            throws(TLSFailure) -> TLSContext
        {
            let api = library.api
            guard let pointer = api.SSL_CTX_new(method) else {
                throw TLSFailure(.unavailable, "SSL_CTX_new failed: \(library.drainErrors())")
            }
            let context = TLSContext(library: library, pointer: pointer, alpn: alpn)
            // SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION): a server offering 1.0 or 1.1 is refused.
            guard api.SSL_CTX_ctrl(pointer, setMinimumProtocolVersion, tls12, nil) == 1 else {
                throw TLSFailure(.unavailable, "TLS 1.2 could not be set as the lowest version")
            }
            _ = api.SSL_CTX_set_options(pointer, noRenegotiation)
            return context
        }

        /// `protocols` as ALPN's wire list: each name after its length byte. Names over 255 bytes
        /// are left out (none of HTTP's is).
        static func alpnWire(_ protocols: [String]) -> [UInt8] {
            var wire: [UInt8] = []
            for name in protocols where !name.utf8.isEmpty && name.utf8.count <= 255 {
                wire.append(UInt8(name.utf8.count))
                wire.append(contentsOf: name.utf8)
            }
            return wire
        }

        // OpenSSL's constants (ssl.h, tls1.h), fixed across 1.1.1 and 3.x.
        static let verifyPeer: Int32 = 1  // SSL_VERIFY_PEER
        static let setMinimumProtocolVersion: Int32 = 123  // SSL_CTRL_SET_MIN_PROTO_VERSION
        static let tls12 = 0x0303  // TLS1_2_VERSION
        static let noRenegotiation: UInt64 = 1 << 30  // SSL_OP_NO_RENEGOTIATION
        static let setSessionCacheMode: Int32 = 44  // SSL_CTRL_SET_SESS_CACHE_MODE
        static let addExtraChainCertificate: Int32 = 14  // SSL_CTRL_EXTRA_CHAIN_CERT
        static let clientCacheWithoutInternalStore = 0x0001 | 0x0100 | 0x0200  // CLIENT | NO_INTERNAL
    }
#endif
