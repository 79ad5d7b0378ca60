import Dispatch
import Foundation
import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The transports, logger and helpers the size-scaling items share (``SizeScalingBenchmark``).

/// A failure of a size-scaling item: the work did not do what it should, so its time means
/// nothing.
struct SizeScalingFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A transport that answers every request with what `answer` makes of it, at once.
struct AnsweringTransport: WebServiceTransport {
    let answer: @Sendable (WebServiceRequest) throws -> TransportResponse

    func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse {
        try answer(request)
    }
}

/// A transport that reads each request's body to its end, in memory or streamed, checks its
/// length against the one the client computed, and answers 200 with a 2-byte text body.
final class DrainingTransport: WebServiceTransport, @unchecked Sendable {  // `received` is guarded by `lock`
    private let lock = NSLock()
    private var received: Int64 = 0

    /// The body bytes read so far, every request together.
    var bytesReceived: Int64 { lock.withLock { received } }

    func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse {
        var count = Int64(request.httpBody?.count ?? 0)
        if let stream = request.httpBodyStream {
            stream.open()
            defer { stream.close() }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let read = stream.read(&buffer, maxLength: buffer.count)
                if read < 0 { throw stream.streamError ?? SizeScalingFailure("the body stream failed") }
                if read == 0 { break }
                count += Int64(read)
            }
        }
        if let expected = context.uploadLength, expected != count {
            throw SizeScalingFailure("the body had \(count) bytes, \(expected) announced")
        }
        lock.withLock { received += count }
        return TransportResponse(statusCode: 200, headers: ["Content-Type": "text/plain"], body: Data("ok".utf8))
    }
}

/// A logger that keeps no message: it counts them and their characters, and notes whether any
/// holds `marker` (a secret that redaction should have hidden).
final class CountingLogger: WebServiceLogger, @unchecked Sendable {  // counters are guarded by `lock`
    private let lock = NSLock()
    private let marker: String?
    private var messageCount = 0
    private var characterCount = 0
    private var markerSeen = false

    init(marker: String? = nil) { self.marker = marker }

    func log(_ message: LogMessage) {
        let seen = marker.map { message.text.contains($0) } ?? false
        lock.withLock {
            messageCount += 1
            characterCount += message.text.utf8.count
            markerSeen = markerSeen || seen
        }
    }

    var messages: Int { lock.withLock { messageCount } }
    var characters: Int { lock.withLock { characterCount } }
    var sawMarker: Bool { lock.withLock { markerSeen } }
}

/// Runs `body` in a task and blocks the calling thread (not a Swift concurrency thread) until
/// it ends: the items that have only `async` API (paging, JSON-RPC batches) are timed from the
/// main thread like the others.
func waitFor<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = TaskOutcome<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do {
            outcome.result = .success(try await body())
        } catch {
            outcome.result = .failure(error)
        }
        done.signal()
    }
    done.wait()
    guard let result = outcome.result else { throw SizeScalingFailure("the task ended without a result") }
    return try result.get()
}

/// What the task of ``waitFor(_:)`` ended with: written before its semaphore is signalled, read
/// after.
private final class TaskOutcome<T: Sendable>: @unchecked Sendable {
    var result: Result<T, any Error>?
}

/// The directories the disk-cache items made, removed when the child is done (after it
/// reported its time: removing 100,000 files takes seconds).
enum TemporaryDirectories {
    private final class List: @unchecked Sendable {  // `urls` is guarded by `lock`
        let lock = NSLock()
        var urls: [URL] = []
    }

    private static let list = List()

    /// The file system directory of the on-disk rows: `WEBSERVICEKIT_BENCH_SIZE_DIR` when set,
    /// else the temporary directory.
    static let onDisk: URL = {
        if let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        return FileManager.default.temporaryDirectory
    }()

    /// The directory of the in-memory rows: `/dev/shm` when it is a writable directory (the
    /// store's own cost, without the device), else ``onDisk``.
    static let inMemory: URL = {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isDirectory), isDirectory.boolValue,
            FileManager.default.isWritableFile(atPath: "/dev/shm")
        {
            return URL(fileURLWithPath: "/dev/shm", isDirectory: true)
        }
        return onDisk
    }()

    static let variable = "WEBSERVICEKIT_BENCH_SIZE_DIR"

    /// A fresh directory under `parent`, for a disk cache, removed by ``removeAll()``.
    static func make(in parent: URL) -> URL {
        let url = parent.appendingPathComponent("webservicekit-size-\(UUID().uuidString)")
        list.lock.withLock { list.urls.append(url) }
        return url
    }

    static func removeAll() {
        let urls = list.lock.withLock {
            defer { list.urls = [] }
            return list.urls
        }
        for url in urls { try? FileManager.default.removeItem(at: url) }
    }
}

/// The CPU time of every thread of this process so far, in seconds.
func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// `VmHWM` of this process in KiB: the peak resident set size since `exec`. `getrusage`'s
/// `ru_maxrss` would do as well in a child of its own, except that a child started by
/// `posix_spawn` (a vfork) starts from its parent's high-water mark.
func ownPeakRSSKiB() -> Int {
    MultipartUploadBenchmark.highWaterMark(of: "self") ?? 0
}
