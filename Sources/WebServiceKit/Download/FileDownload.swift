import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One call's download to a file: the temporary file next to the destination, the sink each
/// send writes the response body into, and the final rename.
///
/// The temporary file is created before the request is sent (an unwritable destination fails
/// the call at once), emptied and written by the call's ``ResponseBodySink`` for each response
/// that is the download (``openBody()``, or ``adopt(_:prefixLength:)`` for a file a transport
/// wrote itself), renamed into place by ``commit()`` and deleted by ``discard()``.
final class FileDownload: Sendable {
    /// The final file.
    let destination: URL
    /// Where the body goes until the call has succeeded: a hidden file next to ``destination``.
    let temporaryURL: URL
    private let replacesExisting: Bool
    /// Set by ``discard()``; moves into or out of the temporary file happen under its lock, so
    /// that a transport finishing after a cancellation cannot bring the file back.
    private let isDiscarded = Locked(false)

    /// Checks `destination` and creates the temporary file (mode 0666 less the umask).
    init(_ destination: DownloadDestination) throws(WebServiceError) {
        let url = destination.url
        guard url.isFileURL, !url.lastPathComponent.isEmpty, !url.hasDirectoryPath else {
            throw .download(.destinationNotWritable(url, reason: "not the URL of a file"))
        }
        let directory = url.deletingLastPathComponent()
        if destination.createsIntermediateDirectories {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw .download(.destinationNotWritable(url, reason: "the directory cannot be created: \(error)"))
            }
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw .download(.destinationNotWritable(url, reason: "it is a directory")) }
            if destination.existingFile == .fail { throw .download(.destinationExists(url)) }
        }
        self.destination = url
        replacesExisting = destination.existingFile == .replace
        let suffix = UUID().uuidString.prefix(8)
        temporaryURL = directory.appendingPathComponent(".\(url.lastPathComponent).\(suffix).download")
        let fd = open(temporaryURL.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw .download(.destinationNotWritable(url, reason: Self.describe(errno))) }
        close(fd)
    }

    /// A download to a new file in the temporary directory, for calls without a destination.
    static func temporary() throws(WebServiceError) -> FileDownload {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("WebServiceKit-\(UUID().uuidString)")
        return try FileDownload(DownloadDestination(url))
    }

    /// Opens the temporary file, emptied, for one response body.
    func openBody() throws(WebServiceError) -> DownloadSink {
        let fd = open(temporaryURL.path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { throw .download(.writeFailed(destination, reason: Self.describe(errno))) }
        return DownloadSink(descriptor: fd, destination: destination)
    }

    /// Takes over a whole body a transport wrote to a file itself (a `URLSession` download task's
    /// file, which Foundation makes in the temporary directory): moved to the temporary file next
    /// to the destination (copied across file systems), with that file's mode (0666 less the
    /// umask). Returns its length and its first `prefixLength` bytes, read back for error
    /// handlers: the one body read from disk, on the one route that cannot hand its bytes over
    /// as they come.
    func adopt(_ location: URL, prefixLength: Int) throws(WebServiceError) -> (length: Int64, prefix: Data) {
        let length = try isDiscarded.withLock { discarded -> Result<Int64, WebServiceError> in
            guard !discarded else {
                return .failure(.download(.writeFailed(destination, reason: "the call has ended")))
            }
            return Result { () throws(WebServiceError) in try move(location) }
        }.get()
        return (length, prefix(prefixLength))
    }

    private func move(_ location: URL) throws(WebServiceError) -> Int64 {
        let manager = FileManager.default
        let mode = (try? manager.attributesOfItem(atPath: temporaryURL.path))?[.posixPermissions] as? NSNumber
        if rename(location.path, temporaryURL.path) != 0 {
            let error = errno
            guard error == EXDEV else { throw .download(.writeFailed(destination, reason: Self.describe(error))) }
            do {
                try? manager.removeItem(at: temporaryURL)
                try manager.copyItem(at: location, to: temporaryURL)
            } catch {
                throw .download(.writeFailed(destination, reason: "\(error)"))
            }
        }
        if let mode { chmod(temporaryURL.path, mode_t(mode.uint16Value)) }
        return ((try? manager.attributesOfItem(atPath: temporaryURL.path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    private func prefix(_ length: Int) -> Data {
        guard let handle = FileHandle(forReadingAtPath: temporaryURL.path) else { return Data() }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: length)) ?? Data()
    }

    /// Moves the body into place. Without `replace`, a file that appeared at the destination
    /// since the call started is not replaced (`link` fails when the name exists).
    func commit() throws(WebServiceError) -> DownloadedFile {
        try isDiscarded.withLock { discarded -> Result<DownloadedFile, WebServiceError> in
            guard !discarded else {
                return .failure(.download(.writeFailed(destination, reason: "the call has ended")))
            }
            return Result { () throws(WebServiceError) in try moveIntoPlace() }
        }.get()
    }

    private func moveIntoPlace() throws(WebServiceError) -> DownloadedFile {
        let size =
            ((try? FileManager.default.attributesOfItem(atPath: temporaryURL.path))?[.size] as? NSNumber)?
            .int64Value ?? 0
        if replacesExisting {
            guard rename(temporaryURL.path, destination.path) == 0 else { throw failure(errno) }
        } else if link(temporaryURL.path, destination.path) == 0 {
            unlink(temporaryURL.path)
        } else {
            let error = errno
            if error == EEXIST { throw .download(.destinationExists(destination)) }
            // A file system without hard links: check, then rename.
            guard error == EPERM || error == ENOTSUP || error == EXDEV || error == EMLINK else { throw failure(error) }
            if FileManager.default.fileExists(atPath: destination.path) {
                throw .download(.destinationExists(destination))
            }
            guard rename(temporaryURL.path, destination.path) == 0 else { throw failure(errno) }
        }
        return DownloadedFile(url: destination, byteCount: size)
    }

    /// Deletes the temporary file (after a failure, a cancellation, an unaccepted status); the
    /// destination is never touched.
    func discard() {
        isDiscarded.withLock { discarded in
            discarded = true
            unlink(temporaryURL.path)
        }
    }

    private func failure(_ error: Int32) -> WebServiceError {
        .download(.writeFailed(destination, reason: "moving the file into place: \(Self.describe(error))"))
    }

    static func describe(_ error: Int32) -> String { String(cString: strerror(error)) }
}

/// The open temporary file of one response body, written by the call's ``ResponseBodySink``
/// (under its lock: one thread at a time).
final class DownloadSink: @unchecked Sendable {  // used by one thread at a time
    private var descriptor: Int32
    private let destination: URL
    /// The bytes written so far.
    private(set) var byteCount: Int64 = 0

    init(descriptor: Int32, destination: URL) {
        self.descriptor = descriptor
        self.destination = destination
    }

    deinit { close() }

    /// Appends `data` to the file.
    func write(_ data: Data) throws(WebServiceError) {
        let result = data.withUnsafeBytes { bytes in Result { () throws(WebServiceError) in try write(bytes) } }
        try result.get()
    }

    /// Appends `bytes` to the file (a transport's read buffer, without a copy).
    func write(_ bytes: UnsafeRawBufferPointer) throws(WebServiceError) {
        guard var next = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = Foundation.write(descriptor, next, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                throw .download(.writeFailed(destination, reason: FileDownload.describe(errno)))
            }
            next += written
            remaining -= written
        }
        byteCount += Int64(bytes.count)
    }

    /// Closes the file; further writes fail.
    func close() {
        if descriptor >= 0 { _ = Foundation.close(descriptor) }
        descriptor = -1
    }
}
