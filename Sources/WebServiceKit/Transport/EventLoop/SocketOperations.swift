import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One address a host name resolved to, ready for `socket(2)` and `connect(2)`.
struct ResolvedAddress: @unchecked Sendable {  // a plain value: the address bytes are copied in
    let family: Int32
    let type: Int32
    let proto: Int32
    private let storage: sockaddr_storage
    private let length: socklen_t

    fileprivate init(_ info: addrinfo) {
        family = info.ai_family
        type = info.ai_socktype
        proto = info.ai_protocol
        var storage = sockaddr_storage()
        let length = min(Int(info.ai_addrlen), MemoryLayout<sockaddr_storage>.size)
        if let source = info.ai_addr {
            withUnsafeMutableBytes(of: &storage) { target in
                target.copyMemory(from: UnsafeRawBufferPointer(start: source, count: length))
            }
        }
        self.storage = storage
        self.length = socklen_t(length)
    }

    /// Calls `body` with the address as `connect(2)` takes it.
    func withSocketAddress<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        withUnsafeBytes(of: storage) { bytes in
            body(bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self), length)
        }
    }
}

/// The non-blocking socket calls of the HTTP/1.1 path, each returning what happened instead of
/// waiting: the event loop does the waiting.
enum SocketOperations {
    /// The host of `url` as `getaddrinfo(3)` takes it: an IPv6 literal without its brackets.
    /// Throws `URLError(.badURL)` when `url` has no host.
    ///
    /// Bytes, not `trimmingCharacters(in:)`: Foundation's bridges through `NSString` and makes a
    /// `CharacterSet`, some 12,000 instructions a call (callgrind).
    static func host(of url: URL) throws(URLError) -> String {
        guard let host = url.host, !host.isEmpty else { throw URLError(.badURL, reason: "no host in \(url)") }
        guard host.utf8.first == UInt8(ascii: "["), host.utf8.last == UInt8(ascii: "]"), host.utf8.count >= 2 else {
            return host
        }
        return String(host.dropFirst().dropLast())
    }

    /// What a `send` or `recv` did.
    enum Transfer: Equatable {
        /// This many bytes moved (0 from `receive`: the peer ended its side).
        case moved(Int)
        /// Nothing can move now: wait for readiness.
        case wouldBlock
        /// The peer closed or reset the connection.
        case peerClosed
        /// Another failure, with the reason.
        case failed(String)
    }

    /// The addresses of `host` (a name or a numeric address, IPv6 without brackets), in the order
    /// the resolver gives them. A name may block on DNS: call this off the event loop.
    static func resolve(host: String, port: Int) throws(URLError) -> [ResolvedAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
            hints.ai_socktype = SOCK_STREAM
        #else
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            throw URLError(.cannotFindHost, reason: "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var addresses: [ResolvedAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let info = entry {
            addresses.append(ResolvedAddress(info.pointee))
            entry = info.pointee.ai_next
        }
        return addresses
    }

    /// Whether `host` is a numeric IPv4 or IPv6 address, which resolves without asking DNS.
    static func isNumeric(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// An `errno` value.
    struct SystemError: Error, Equatable {
        let code: Int32

        var description: String { String(cString: strerror(code)) }
    }

    /// Whether `error` says no descriptor is left: for the process (`EMFILE`, its
    /// `RLIMIT_NOFILE` reached) or for the whole system (`ENFILE`).
    static func isOutOfDescriptors(_ error: SystemError) -> Bool {
        error.code == EMFILE || error.code == ENFILE
    }

    /// The error of a connection to `name` (`host:port`) that could not be made because of
    /// `error`: `URLError(.cannotConnectToHost)`, as the session reports a connection libcurl
    /// could not make, with `error` as a `POSIXError` under `NSUnderlyingErrorKey`. When no
    /// descriptor is left its description says "too many open files" and what to do about it.
    static func connectionFailure(_ error: SystemError, name: String) -> URLError {
        let reason: String
        switch error.code {
        case EMFILE:
            reason =
                "cannot connect to \(name): too many open files (EMFILE): the process has no descriptor left"
                + " for a new connection; raise its limit (ulimit -n) or lower"
                + " HTTP1Transport.ConnectionLimits.total"
        case ENFILE:
            reason =
                "cannot connect to \(name): too many open files in the system (ENFILE): the system has no"
                + " file left for a new connection"
        default:
            reason = "cannot connect to \(name): \(error.description)"
        }
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: reason]
        if let code = POSIXErrorCode(rawValue: error.code) { userInfo[NSUnderlyingErrorKey] = POSIXError(code) }
        return URLError(.cannotConnectToHost, userInfo: userInfo)
    }

    /// A new non-blocking, close-on-exec socket for `address`, its connection started: `true`
    /// when it connected at once, `false` when it is in progress (wait until writable, then
    /// ``pendingError(of:)``). Fails with the `errno` of a socket that could not start.
    static func startConnection(to address: ResolvedAddress) -> Result<(fd: Int32, connected: Bool), SystemError> {
        #if canImport(Glibc)
            // Both flags as the socket is made: no window in which a fork elsewhere in the process
            // inherits it, and four system calls fewer per connection.
            let flags = Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            let fd = socket(address.family, address.type | flags, address.proto)
            guard fd >= 0 else { return .failure(SystemError(code: errno)) }
        #else
            let fd = socket(address.family, address.type, address.proto)
            guard fd >= 0 else { return .failure(SystemError(code: errno)) }
            _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        #endif
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
            _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        let status = address.withSocketAddress { connect(fd, $0, $1) }
        if status == 0 { return .success((fd, true)) }
        let code = errno
        guard code == EINPROGRESS else {
            closeDescriptor(fd)
            return .failure(SystemError(code: code))
        }
        return .success((fd, false))
    }

    /// The error a connection in progress ended with (`SO_ERROR`); 0 when it connected.
    static func pendingError(of fd: Int32) -> Int32 {
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) == 0 else { return errno }
        return failure
    }

    /// Sends what of `bytes` the socket takes now.
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Transfer {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return .moved(0) }
        #if canImport(Darwin)
            let flags: Int32 = 0
        #else
            let flags = Int32(MSG_NOSIGNAL)
        #endif
        while true {
            let written = Foundation.send(fd, base, bytes.count, flags)
            if written >= 0 { return .moved(written) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            case EPIPE, ECONNRESET: return .peerClosed
            case let code: return .failed("send failed: \(String(cString: strerror(code)))")
            }
        }
    }

    /// Reads what is there into `buffer`; `.moved(0)` at the end of the stream.
    /// Whether an idle connection can still carry a request: nothing has arrived on it, neither
    /// bytes nor the peer's close (a `recv` with `MSG_PEEK`, which takes nothing). A kept-alive
    /// connection's close may be in the socket before the loop has seen its event.
    static func isQuiet(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        while true {
            let count = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            if count >= 0 { return false }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return true
            default: return false
            }
        }
    }

    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Transfer {
        while true {
            let count = recv(fd, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return .moved(count) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            case ECONNRESET: return .peerClosed
            case let code: return .failed("recv failed: \(String(cString: strerror(code)))")
            }
        }
    }

    /// The C library's `close(2)`.
    @discardableResult
    static func closeDescriptor(_ fd: Int32) -> Int32 {
        #if canImport(Darwin)
            Darwin.close(fd)
        #elseif canImport(Musl)
            Musl.close(fd)
        #else
            Glibc.close(fd)
        #endif
    }
}
