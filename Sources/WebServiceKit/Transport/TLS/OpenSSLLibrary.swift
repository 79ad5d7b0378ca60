// The C shim declares OpenSSL's function table; a build without it (the fuzz binary) has no TLS layer.
#if canImport(CWebServiceKitSystem)
    import CWebServiceKitSystem

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// The system's OpenSSL, opened once on first use with `dlopen` (libssl.so.3, else
    /// libssl.so.1.1) and bound to the functions the TLS layer calls: no OpenSSL header at build
    /// time, nothing linked, no package dependency (`CWebServiceKitOpenSSL.h` declares the table).
    /// FoundationNetworking's libcurl already loads the same library into the process on Linux.
    ///
    /// When it cannot be opened or lacks a function, ``shared`` says why, and https stays with
    /// URLSession.
    struct OpenSSLLibrary: @unchecked Sendable {
        // The table is written once, before `shared` publishes it, and only read afterwards.
        let api: wsk_openssl

        /// The library, or why it is unavailable.
        static let shared: Result<OpenSSLLibrary, TLSFailure> = load(names: nil)

        /// Opens the first of `names` that loads (`nil`: libssl.so.3, then libssl.so.1.1).
        static func load(names: [String]?) -> Result<OpenSSLLibrary, TLSFailure> {
            var api = wsk_openssl()
            var reason = [CChar](repeating: 0, count: 256)
            let result: Int32
            if let names {
                var pointers: [UnsafePointer<CChar>?] = names.map { UnsafePointer(strdup($0)) }
                pointers.append(nil)
                defer { for pointer in pointers { free(UnsafeMutablePointer(mutating: pointer)) } }
                result = wsk_openssl_load(&api, &pointers, &reason, reason.count)
            } else {
                result = wsk_openssl_load(&api, nil, &reason, reason.count)
            }
            guard result == 0 else {
                return .failure(TLSFailure(.unavailable, Self.text(reason)))
            }
            let library = OpenSSLLibrary(api: api)
            // TLS 1.3 and the functions above need 1.1.1 at least.
            guard library.versionNumber >= 0x1010_1000 else {
                return .failure(TLSFailure(.unavailable, "OpenSSL \(library.version) is older than 1.1.1"))
            }
            return .success(library)
        }

        /// OpenSSL's version number (`0x30000130` for 3.0.19).
        var versionNumber: UInt { UInt(api.OpenSSL_version_num()) }

        /// The version as text: `3.0.19`.
        var version: String {
            let number = versionNumber
            return "\(number >> 28).\((number >> 20) & 0xFF).\((number >> 4) & 0xFF)"
        }

        /// The errors OpenSSL queued on this thread, oldest first, as one line; the queue is emptied.
        func drainErrors() -> String {
            var messages: [String] = []
            var buffer = [CChar](repeating: 0, count: 256)
            while case let code = api.ERR_get_error(), code != 0 {
                api.ERR_error_string_n(code, &buffer, buffer.count)
                messages.append(Self.text(buffer))
            }
            return messages.joined(separator: "; ")
        }

        /// The text of a C string in `buffer`, up to its terminator.
        private static func text(_ buffer: [CChar]) -> String {
            String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
        }
    }
#endif
