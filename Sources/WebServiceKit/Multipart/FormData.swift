import Foundation

/// One part of a `multipart/form-data` body (RFC 7578).
///
/// Arguments of type `FormData` or `[FormData]`, in any mix and order, make a call multipart
/// (as in ROAD):
///
/// ```swift
/// static let upload = WebServiceCall<UploadResult>(method: .post, relativePath: "upload")
/// try await client.perform(.upload, [
///     FormData(name: "title", value: "Holiday"),
///     FormData(name: "photo", fileURL: URL(fileURLWithPath: "/tmp/photo.jpg"), contentType: "image/jpeg"),
/// ])
/// ```
///
/// File and stream parts are read while the request is sent, never loaded into memory.
public struct FormData: Sendable {
    /// Where a part's bytes come from.
    public enum Content: Sendable {
        /// Bytes in memory.
        case data(Data)
        /// A file, read while sending; its size is taken when the call starts and must not change.
        case file(URL)
        /// A stream of exactly `length` bytes, opened by `open` for each send.
        case stream(length: Int64, isReplayable: Bool, open: @Sendable () throws -> InputStream)
    }

    /// The field name.
    public let name: String
    /// The file name sent in `Content-Disposition`, if any.
    public let fileName: String?
    /// The part's `Content-Type`; `nil` sends none (text/plain by RFC 7578 §4.4).
    public let contentType: String?
    /// The part's bytes.
    public let content: Content

    /// Creates a part from its fields.
    public init(name: String, content: Content, fileName: String? = nil, contentType: String? = nil) {
        self.name = name
        self.content = content
        self.fileName = fileName
        self.contentType = contentType
    }

    /// A text field: UTF-8, no `Content-Type`.
    public init(name: String, value: String) {
        self.init(name: name, content: .data(Data(value.utf8)))
    }

    /// A part from bytes; with a file name it is a file, `application/octet-stream` unless told otherwise.
    public init(name: String, data: Data, fileName: String? = nil, contentType: String? = nil) {
        self.init(
            name: name, content: .data(data), fileName: fileName,
            contentType: contentType ?? (fileName == nil ? nil : "application/octet-stream"))
    }

    /// A file part, streamed from disk; the file name defaults to the URL's last component and
    /// the type to `application/octet-stream`.
    public init(name: String, fileURL: URL, fileName: String? = nil, contentType: String = "application/octet-stream") {
        self.init(
            name: name, content: .file(fileURL), fileName: fileName ?? fileURL.lastPathComponent,
            contentType: contentType)
    }

    /// A part read from streams that `open` creates (one per send, so a retry can resend it).
    public init(
        name: String, length: Int64, fileName: String? = nil, contentType: String = "application/octet-stream",
        open: @escaping @Sendable () throws -> InputStream
    ) {
        self.init(
            name: name, content: .stream(length: length, isReplayable: true, open: open), fileName: fileName,
            contentType: contentType)
    }

    /// A part read once from an existing stream. A call that must send it again (after a 401
    /// challenge, say) fails with ``WebServiceError/requestSerialization(_:)``.
    public init(
        name: String, inputStream: InputStream, length: Int64, fileName: String? = nil,
        contentType: String = "application/octet-stream"
    ) {
        let box = UncheckedStream(stream: inputStream)
        self.init(
            name: name, content: .stream(length: length, isReplayable: false, open: { box.stream }), fileName: fileName,
            contentType: contentType)
    }
}

/// Carries a caller's `InputStream` (not `Sendable`) to the one send that reads it.
private struct UncheckedStream: @unchecked Sendable {
    let stream: InputStream
}
