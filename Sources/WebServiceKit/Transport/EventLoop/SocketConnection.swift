import Dispatch
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

/// A TCP connection with non-blocking I/O, a deadline for everything it does, and a
/// `cancel()` that any thread may call to end a wait at once.
///
/// Every wait polls the socket together with a pipe that `cancel()` writes to, so a cancelled or
/// expired exchange never hangs in a system call. ``close()`` releases the three descriptors (the
/// socket and the pipe's two ends) at once; the deinitializer does it for a connection never closed.
// `descriptor` is written under `flags`' lock and read under it from any thread but the one running
// the exchange: the exchange's thread hands the connection back by resuming the call's
// continuation, an edge ThreadSanitizer does not see (Tests/Sanitizers/tsan.supp), so the pool's
// and `close()`'s reads on the call's thread go through the lock. `deadline` is used by one thread
// at a time (a pooled connection changes hands under the pool's lock). The pipe's descriptors are
// read and closed under the same lock, so that a late `cancel()` never writes to a descriptor
// number that was closed and given to another file.
final class SocketConnection: @unchecked Sendable {
    private var descriptor: Int32 = -1
    private let wake: (read: Int32, write: Int32)
    /// When the current exchange must be done; set anew for each exchange on a kept-alive
    /// connection.
    var deadline: DispatchTime?
    private let flags = Locked((cancelled: false, closed: false))

    /// Why the connection wrote no more: the peer closed or reset it.
    struct PeerClosed: Error {}

    /// Prepares a connection that must finish its work by `deadline` (`nil`: no deadline).
    init(deadline: DispatchTime?) throws(URLError) {
        self.deadline = deadline
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw URLError(.unknown, reason: "pipe() failed: errno \(errno)") }
        for fd in fds { Self.configure(fd) }
        wake = (fds[0], fds[1])
    }

    deinit { close() }

    /// Closes the socket and the wake pipe now; the connection is cancelled from then on. Call it
    /// only when no exchange uses the connection; calling it again does nothing.
    func close() {
        let socket = flags.withLock { flags -> Int32? in
            guard !flags.closed else { return nil }
            flags = (cancelled: true, closed: true)
            defer { descriptor = -1 }
            return descriptor
        }
        guard let socket else { return }
        if socket >= 0 { _ = systemClose(socket) }
        flags.withLock { _ in
            _ = systemClose(wake.read)
            _ = systemClose(wake.write)
        }
    }

    /// Closes the socket alone: the connection is not cancelled, and ``open(host:port:)`` connects
    /// it anew. For a request that must go out again on a fresh connection (a 417 answer to
    /// `Expect: 100-continue`). Only the thread running the exchange calls it.
    func disconnect() {
        let socket = exchange(-1)
        guard socket >= 0 else { return }
        _ = systemClose(socket)
    }

    /// Sets the socket's descriptor under the lock (see the type's comment); the one it replaces.
    @discardableResult
    private func exchange(_ new: Int32) -> Int32 {
        flags.withLock { _ in
            defer { descriptor = new }
            return descriptor
        }
    }

    /// The socket's descriptor, read under the lock: for threads other than the exchange's.
    private var lockedDescriptor: Int32 { flags.withLock { _ in descriptor } }

    /// Ends every wait, now and later, with `URLError.cancelled`.
    func cancel() {
        flags.withLock { flags in
            flags.cancelled = true
            guard !flags.closed else { return }
            var byte: UInt8 = 1
            _ = write(wake.write, &byte, 1)
        }
    }

    var isCancelled: Bool { flags.current.cancelled }

    /// Whether ``close()`` released the connection's descriptors.
    var isClosed: Bool { flags.current.closed }

    /// Whether the socket is connected.
    var isOpen: Bool { lockedDescriptor >= 0 }

    /// Whether an idle kept-alive connection can take a request: nothing to read (a server that
    /// closed it, or sent something unasked, makes it readable) and no error or hang-up.
    var isIdleAndOpen: Bool {
        let socket = lockedDescriptor
        guard socket >= 0, !isCancelled else { return false }
        var entry = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 0
    }

    /// Connects to the first address of `host` that accepts, waiting for each (with the
    /// event loop's socket operations, here driven by `poll`).
    func open(host: String, port: Int) throws(URLError) {
        var lastError = SocketOperations.SystemError(code: ECONNREFUSED)
        for address in try SocketOperations.resolve(host: host, port: port) {
            switch SocketOperations.startConnection(to: address) {
            case .failure(let error):
                lastError = error
            case .success(let started):
                exchange(started.fd)
                if started.connected { return }
                do {
                    try wait(for: Int16(POLLOUT))
                } catch {
                    _ = systemClose(started.fd)
                    exchange(-1)
                    throw error
                }
                let failure = SocketOperations.pendingError(of: started.fd)
                if failure == 0 { return }
                lastError = SocketOperations.SystemError(code: failure)
                _ = systemClose(started.fd)
                exchange(-1)
            }
        }
        throw URLError(.cannotConnectToHost, reason: "cannot connect to \(host):\(port): \(lastError.description)")
    }

    /// Writes all of `bytes`; throws ``PeerClosed`` when the peer closed or reset the connection.
    func sendAll(_ bytes: UnsafeRawBufferPointer) throws {
        if let deadline, DispatchTime.now() >= deadline { throw URLError(.timedOut) }
        var offset = 0
        while offset < bytes.count {
            if isCancelled { throw URLError(.cancelled) }
            #if canImport(Darwin)
                let flags: Int32 = 0
            #else
                let flags = Int32(MSG_NOSIGNAL)
            #endif
            let written = send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, flags)
            if written > 0 {
                offset += written
            } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                try wait(for: Int16(POLLOUT))
            } else if written < 0 && errno == EINTR {
                continue
            } else if written < 0 && (errno == EPIPE || errno == ECONNRESET) {
                throw PeerClosed()
            } else {
                throw URLError(.networkConnectionLost, reason: "send failed: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Whether bytes (or the end of the stream) can be read without waiting.
    var hasInput: Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    /// Reads what is there, waiting for at least one byte; 0 at the end of the stream.
    func receive(into buffer: UnsafeMutableRawBufferPointer) throws(URLError) -> Int {
        while true {
            if isCancelled { throw URLError(.cancelled) }
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            switch errno {
            case EAGAIN, EWOULDBLOCK: try wait(for: Int16(POLLIN))
            case EINTR: continue
            case ECONNRESET: throw URLError(.networkConnectionLost, reason: "the server reset the connection")
            default: throw URLError(.networkConnectionLost, reason: "recv failed: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Waits until the socket is ready for `events`, the deadline passes, or `cancel()` is called.
    ///
    /// - Parameter limit: Stop waiting after this many milliseconds and return `false`.
    @discardableResult
    func wait(for events: Int16, atMost limit: Int32? = nil) throws(URLError) -> Bool {
        while true {
            if isCancelled { throw URLError(.cancelled) }
            var timeout = limit ?? -1
            if let deadline {
                let now = DispatchTime.now()
                guard now < deadline else { throw URLError(.timedOut) }
                let nanoseconds = deadline.uptimeNanoseconds - now.uptimeNanoseconds
                let left = Int32(min(Int64(Int32.max), Int64(nanoseconds / 1_000_000) + 1))
                timeout = timeout < 0 ? left : min(timeout, left)
            }
            var entries = [
                pollfd(fd: descriptor, events: events, revents: 0),
                pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&entries, 2, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                throw URLError(.unknown, reason: "poll failed: \(String(cString: strerror(errno)))")
            }
            if entries[1].revents != 0 { throw URLError(.cancelled) }
            if entries[0].revents != 0 { return true }
            if let limit, ready == 0, limit >= 0 {
                if let deadline, DispatchTime.now() >= deadline { throw URLError(.timedOut) }
                return false
            }
        }
    }

    /// The C library's `close(2)`, which the method ``close()`` hides.
    private func systemClose(_ fd: Int32) -> Int32 {
        #if canImport(Darwin)
            Darwin.close(fd)
        #elseif canImport(Musl)
            Musl.close(fd)
        #else
            Glibc.close(fd)
        #endif
    }

    /// Close-on-exec and non-blocking.
    private static func configure(_ fd: Int32) {
        _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
}

extension URLError {
    /// A `URLError` whose description says what happened.
    init(_ code: URLError.Code, reason: String) {
        self.init(code, userInfo: [NSLocalizedDescriptionKey: reason])
    }

    /// The call's deadline passed before its request was written: no byte of it was sent, so the
    /// server never saw it. Every transport checks the deadline once more just before the first
    /// write, whatever its timers say: a timer may run late on a busy thread, and a request written
    /// after its call failed (a POST the server then processes) must never happen.
    static func timedOutBeforeTheRequest(timeout: TimeInterval) -> URLError {
        .timedOut(
            TimeoutFailure(phase: .connecting, limit: timeout),
            detail: "Its request was not written: nothing was sent")
    }
}
