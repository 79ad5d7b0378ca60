import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Reads streamed request bodies, and writes downloads to their files, off the event loops,
/// on a fixed number of serial queues: a stream's `read` may block (on a file, or on the
/// producer of a bound pair), and so may a write to a file, so neither runs on a loop, and at
/// most `width` threads of each kind ever do, whatever the number of calls.
final class BodyStreamReader: Sendable {
    /// The process's body readers: two reads at a time.
    static let shared = BodyStreamReader(width: 2)
    /// The process's download writers: two files written at a time.
    static let files = BodyStreamReader(width: 2, label: "file-writer")

    private let queues: [DispatchQueue]
    private let turn = Locked(0)

    init(width: Int, label: String = "body-reader") {
        queues = (0..<max(1, width)).map { DispatchQueue(label: "WebServiceKit.\(label)-\($0)") }
    }

    /// The queue whose turn it is: one upload reads all of its stream on it, in order.
    func nextQueue() -> DispatchQueue {
        queues[
            turn.withLock { turn in
                defer { turn = (turn + 1) % queues.count }
                return turn
            }]
    }
}

/// One upload's body stream, read a chunk at a time on a ``BodyStreamReader`` queue: the
/// stream is opened by the first read, checked against its announced length at its end, and
/// closed once (after the read under way, if any).
final class BodyStreamFeed: @unchecked Sendable {  // its state is touched only on `queue` (or one exchange's thread)
    private let stream: InputStream
    private let length: Int64?
    private let queue: DispatchQueue
    private var opened = false
    private var closed = false
    private var sent: Int64 = 0

    init(stream: InputStream, length: Int64?, queue: DispatchQueue) {
        self.stream = stream
        self.length = length
        self.queue = queue
    }

    /// Reads the next chunk (at most `limit` bytes) on the feed's queue and calls `completion`
    /// there: its bytes, `nil` at the stream's end, or
    /// `WebServiceError.requestSerialization` when the stream failed or its length was not
    /// the announced one.
    func next(limit: Int, _ completion: @escaping @Sendable (Result<[UInt8]?, WebServiceError>) -> Void) {
        queue.async { [self] in
            guard !closed else { return }
            completion(read(limit: limit))
        }
    }

    /// Closes the stream once, after the read under way.
    func close() {
        queue.async { [self] in
            guard !closed else { return }
            closed = true
            if opened { stream.close() }
        }
    }

    /// Reads the next chunk on the calling thread: for the blocking driver, whose thread is the
    /// exchange's own (the feed's queue is not used then).
    func readNow(limit: Int) -> Result<[UInt8]?, WebServiceError> {
        guard !closed else { return .success(nil) }
        return read(limit: limit)
    }

    private func read(limit: Int) -> Result<[UInt8]?, WebServiceError> {
        if !opened {
            // Opened only when its body goes out, so a request refused before it (a 417)
            // leaves the stream as it was.
            stream.open()
            opened = true
        }
        let wanted = length.map { Int(min(Int64(limit), max(0, $0 - sent))) } ?? limit
        do throws(WebServiceError) {
            var bytes = [UInt8]()
            if wanted > 0 { bytes = try readBytes(wanted) }
            if bytes.isEmpty {
                try checkEnd()
                return .success(nil)
            }
            sent += Int64(bytes.count)
            // The piece that completes the announced length is checked to be the last before
            // it goes: once it is written the request is whole on the wire, and the exchange
            // asks for nothing more.
            if let length, sent == length { try checkEnd() }
            return .success(bytes)
        } catch {
            return .failure(error)
        }
    }

    private func readBytes(_ count: Int) throws(WebServiceError) -> [UInt8] {
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            let read = stream.read(base, maxLength: count)
            if read < 0 { failed = true }
            initialized = max(0, min(read, count))
        }
        if failed {
            throw WebServiceError.requestSerialization(
                "the body could not be sent: \(stream.reportedError.map { "\($0)" } ?? "the stream failed")")
        }
        return bytes
    }

    /// A body of known length must end exactly there: a short stream would leave the server
    /// waiting, a long one would be cut silently.
    private func checkEnd() throws(WebServiceError) {
        guard let length else { return }
        if sent < length {
            throw WebServiceError.requestSerialization(
                "the body stream ended after \(sent) of its \(length) bytes")
        }
        if try !readBytes(1).isEmpty {
            throw WebServiceError.requestSerialization("the body stream is longer than its \(length) bytes")
        }
    }
}
