import Foundation

/// Where a ``WebServiceCall`` whose `Response` is ``DownloadedFile`` writes the response body.
///
/// Pass it as one of the call's arguments (any position; it is recognised by its type):
///
/// ```swift
/// extension WebServiceCall where Response == DownloadedFile {
///     static let quarterlyReport = WebServiceCall(relativePath: "reports/%%0%%.pdf", progressParameter: 1)
/// }
/// let destination = DownloadDestination(documents.appendingPathComponent("report.pdf"), existingFile: .replace)
/// let file = try await client.perform(.quarterlyReport, ["2024-q4", progress, destination])
/// ```
///
/// The body streams into a temporary file next to `url` (created with the process's umask) and is
/// renamed into place only when the call succeeds; a failure, a cancellation or an unaccepted
/// status deletes it. Without a destination, the file goes to the temporary directory.
public struct DownloadDestination: Sendable, Hashable {
    /// What to do when a file is already at the destination.
    public enum ExistingFile: Sendable, Hashable {
        /// Fail with ``FileDownloadError/destinationExists(_:)``, before anything is sent, and
        /// again at the end if a file appeared in the meantime. The default.
        case fail
        /// Replace it, atomically, when the download has succeeded.
        case replace
    }

    /// The file URL the body ends up at.
    public var url: URL
    /// What to do when a file is already at ``url``.
    public var existingFile: ExistingFile
    /// Whether missing parent directories of ``url`` are created.
    public var createsIntermediateDirectories: Bool

    /// Creates a destination.
    ///
    /// - Parameters:
    ///   - url: A file URL; its directory must be writable.
    ///   - existingFile: Fail (the default) or replace when a file is already there.
    ///   - createsIntermediateDirectories: Create missing parent directories.
    public init(_ url: URL, existingFile: ExistingFile = .fail, createsIntermediateDirectories: Bool = false) {
        self.url = url
        self.existingFile = existingFile
        self.createsIntermediateDirectories = createsIntermediateDirectories
    }
}

/// The response of a call that downloads to a file: declare calls as `WebServiceCall<DownloadedFile>`.
///
/// The body is written to disk as it arrives and is never held in memory, never cached, and not
/// in ``WebServiceResponse/body`` (which is empty for these calls).
public struct DownloadedFile: Sendable, Hashable {
    /// Where the body is: the ``DownloadDestination``'s URL, or a new file in the temporary
    /// directory (yours to move or delete) when the call had no destination argument.
    public let url: URL
    /// The length of the file.
    public let byteCount: Int64

    /// Creates a value, for tests of code that handles downloads.
    public init(url: URL, byteCount: Int64) {
        self.url = url
        self.byteCount = byteCount
    }
}

/// Why a download to a file failed on the local side.
public enum FileDownloadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A file is at the destination and the ``DownloadDestination/existingFile`` policy is `fail`.
    case destinationExists(URL)
    /// The destination cannot be written: its directory is missing or read-only, it is a
    /// directory, or it is not a file URL.
    case destinationNotWritable(URL, reason: String)
    /// Writing the body failed (a full disk…) or the file could not be moved into place.
    case writeFailed(URL, reason: String)

    public var description: String {
        switch self {
        case .destinationExists(let url): "a file already exists at \(url.path)"
        case .destinationNotWritable(let url, let reason): "cannot write to \(url.path): \(reason)"
        case .writeFailed(let url, let reason): "writing \(url.path) failed: \(reason)"
        }
    }
}
