import Foundation

/// A piece of a multipart body, in the order it is sent.
enum MultipartSegment: Sendable {
    case bytes(Data)
    case file(URL, length: Int64)
    case stream(@Sendable () throws -> InputStream, length: Int64, isReplayable: Bool)

    var length: Int64 {
        switch self {
        case .bytes(let data): Int64(data.count)
        case .file(_, let length), .stream(_, let length, _): length
        }
    }

    var isReplayable: Bool {
        if case .stream(_, _, let isReplayable) = self { return isReplayable }
        return true
    }

    /// Adjacent byte segments joined, so the stream has fewer, larger reads.
    ///
    /// Linear in the number of bytes: each run of byte segments is measured first and copied once
    /// into a buffer of exactly its size (joining pairwise would copy the run so far on every
    /// step, quadratic in a form of many small fields). A run of one segment is kept as it is.
    static func merged(_ segments: [MultipartSegment]) -> [MultipartSegment] {
        var result: [MultipartSegment] = []
        var index = segments.startIndex
        while index < segments.endIndex {
            guard case .bytes(let first) = segments[index] else {
                result.append(segments[index])
                index += 1
                continue
            }
            var end = index + 1
            var runLength = first.count
            while end < segments.endIndex, case .bytes(let next) = segments[end] {
                runLength += next.count
                end += 1
            }
            if end - index == 1 {
                result.append(segments[index])
            } else {
                var run = Data(capacity: runLength)
                for case .bytes(let bytes) in segments[index..<end] { run.append(bytes) }
                result.append(.bytes(run))
            }
            index = end
        }
        return result
    }
}

/// Reads a multipart body segment by segment: memory, then files and streams opened one at a
/// time, so a 1 GiB file goes out through a buffer of a few hundred KiB.
///
/// A file or stream that ends early, or has bytes past its announced length (it changed while
/// uploading), fails the stream, and so the call: a half-sent body is never reported as success.
/// Each instance is read by one URLSession task (or one direct exchange) only.
///
/// Its status and error are asked for from another thread too: by the call after a failed send,
/// to tell a broken body from a broken connection, while Foundation's thread may still be reading
/// (a cancelled or timed-out URLSession task stops on its own schedule). So they are kept under a
/// lock (ThreadSanitizer reported the unguarded fields).
final class MultipartInputStream: InputStream {
    private let segments: [MultipartSegment]
    private var index = 0
    private var offsetInSegment: Int64 = 0
    private var currentFile: FileHandle?
    private var currentStream: InputStream?
    private let shared = Locked<(status: Stream.Status, failure: (any Error)?)>((.notOpen, nil))
    private var status: Stream.Status {
        get { shared.withLock { $0.status } }
        set { shared.withLock { $0.status = newValue } }
    }

    init(segments: [MultipartSegment]) {
        self.segments = segments
        super.init(data: Data())
    }

    override var streamStatus: Stream.Status { status }
    override var streamError: (any Error)? { shared.withLock { $0.failure } }
    // Foundation on Linux may read without calling open() first: a fresh stream is readable.
    override var hasBytesAvailable: Bool { status == .notOpen || status == .open || status == .reading }

    override func open() { shared.withLock { if $0.status == .notOpen { $0.status = .open } } }

    override func close() {
        closeCurrent()
        status = .closed
    }

    override func getBuffer(
        _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length len: UnsafeMutablePointer<Int>
    ) -> Bool { false }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        open()
        guard status == .open || status == .reading else { return status == .atEnd ? 0 : -1 }
        status = .reading
        do {
            var written = 0
            while written < len, index < segments.count {
                let count = try readCurrent(into: buffer + written, maxLength: len - written)
                written += count
                if count == 0 { advance() }
            }
            status = index >= segments.count && written == 0 ? .atEnd : .open
            return written
        } catch {
            shared.withLock { $0 = (.error, error) }
            closeCurrent()
            return -1
        }
    }

    /// Reads from the current segment; 0 when it is exhausted.
    private func readCurrent(into buffer: UnsafeMutablePointer<UInt8>, maxLength: Int) throws -> Int {
        let segment = segments[index]
        let remaining = segment.length - offsetInSegment
        guard remaining > 0 else {
            if case .file(let url, _) = segment, currentFile == nil { _ = try openFile(url) }
            try checkNothingFollows(segment)
            return 0
        }
        let wanted = Int(min(Int64(maxLength), remaining))
        let count: Int
        switch segment {
        case .bytes(let data):
            let start = data.startIndex + Int(offsetInSegment)
            data.copyBytes(to: buffer, from: start..<(start + wanted))
            count = wanted
        case .file(let url, _):
            // Straight into the transport's buffer: FileHandle.read(upToCount:) allocates, and on
            // Linux checks the file size on every call.
            count = try Self.read(try currentFile ?? openFile(url), into: buffer, maxLength: wanted)
        case .stream(let open, _, _):
            let stream = try currentStream ?? openStream(open)
            count = stream.read(buffer, maxLength: wanted)
            if count < 0 { throw stream.reportedError ?? MultipartStreamError("a part's stream failed") }
        }
        if count == 0 {
            throw MultipartStreamError(
                "a part ended \(remaining) bytes early: its file or stream changed while uploading")
        }
        offsetInSegment += Int64(count)
        return count
    }

    private static func read(_ handle: FileHandle, into buffer: UnsafeMutablePointer<UInt8>, maxLength: Int) throws
        -> Int
    {
        while true {
            let count = Foundation.read(handle.fileDescriptor, buffer, maxLength)
            if count >= 0 { return count }
            if errno != EINTR { throw MultipartStreamError("reading a file part failed: errno \(errno)") }
        }
    }

    /// After the announced length, a file or stream must be at its end.
    private func checkNothingFollows(_ segment: MultipartSegment) throws {
        switch segment {
        case .file:
            if let extra = try currentFile?.read(upToCount: 1), !extra.isEmpty {
                throw MultipartStreamError("a file grew while uploading")
            }
        case .stream:
            var byte: UInt8 = 0
            if let stream = currentStream, stream.hasBytesAvailable, stream.read(&byte, maxLength: 1) > 0 {
                throw MultipartStreamError("a part's stream has more bytes than its announced length")
            }
        case .bytes:
            break
        }
    }

    private func openFile(_ url: URL) throws -> FileHandle {
        let handle = try FileHandle(forReadingFrom: url)
        currentFile = handle
        return handle
    }

    private func openStream(_ open: @Sendable () throws -> InputStream) throws -> InputStream {
        let stream = try open()
        stream.open()
        currentStream = stream
        return stream
    }

    private func advance() {
        closeCurrent()
        index += 1
        offsetInSegment = 0
    }

    private func closeCurrent() {
        try? currentFile?.close()
        currentFile = nil
        currentStream?.close()
        currentStream = nil
    }
}

/// Why a multipart body stream failed.
struct MultipartStreamError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
