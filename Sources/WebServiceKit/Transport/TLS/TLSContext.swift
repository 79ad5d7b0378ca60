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
            /// The system's store (OpenSSL's default paths, which honour `SSL_CERT_FILE` and
            /// `SSL_CERT_DIR`, as curl does).
            var systemRoots = true
            /// PEM files of further certificate authorities to trust.
            var additionalCAFiles: [String] = []
            /// A test-only switch that turns verification off, so that a test of a refusal can show
            /// it fails without the check (its twin). Never set outside tests.
            var testOnlySkipsVerification = false
        }

        /// The ALPN list each client session offers, in wire form (RFC 7301 §3.1); empty for none.
        let alpn: [UInt8]

        private init(library: OpenSSLLibrary, pointer: UnsafeMutableRawPointer, alpn: [UInt8]) {
            self.library = library
            self.pointer = pointer
            self.alpn = alpn
        }

        deinit { library.api.SSL_CTX_free(pointer) }

        /// A client context trusting `trust`, offering `alpn` (in order of preference).
        static func client(trust: Trust, alpn: [String] = ["http/1.1"], library: OpenSSLLibrary) throws(TLSFailure)
            -> TLSContext
        {
            let context = try make(library.api.TLS_client_method(), alpn: alpnWire(alpn), library: library)
            let api = library.api
            if !trust.testOnlySkipsVerification {
                api.SSL_CTX_set_verify(context.pointer, Self.verifyPeer, nil)
            }
            if trust.systemRoots, api.SSL_CTX_set_default_verify_paths(context.pointer) != 1 {
                throw TLSFailure(
                    .unavailable, "the system's certificate store could not be read: \(library.drainErrors())")
            }
            for file in trust.additionalCAFiles where api.SSL_CTX_load_verify_locations(context.pointer, file, nil) != 1
            {
                throw TLSFailure(
                    .untrusted, "the certificate authority file \(file) could not be read: \(library.drainErrors())")
            }
            return context
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
    }
#endif
