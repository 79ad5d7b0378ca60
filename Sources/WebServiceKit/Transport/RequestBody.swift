import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request body: bytes in memory, or a stream opened anew for every send.
///
/// Streams are how large bodies (multipart uploads from files) go out without being loaded into
/// memory. Because the client may send a request more than once (an answered challenge, a 307
/// redirect), a streamed body is a factory: each send opens a fresh stream. A body that can only
/// be read once says so, and a second send fails with a clear error instead of sending nothing.
public struct RequestBody: Sendable {
    enum Storage: Sendable {
        case data(Data)
        case stream(open: @Sendable () throws -> InputStream, length: Int64?, isReplayable: Bool)
    }

    let storage: Storage

    /// A body held in memory.
    public static func data(_ data: Data) -> RequestBody { RequestBody(storage: .data(data)) }

    /// A body read from streams that `open` creates, one per send.
    ///
    /// - Parameters:
    ///   - length: The exact byte count, sent as `Content-Length`; `nil` sends the body chunked.
    ///   - isReplayable: Whether `open` can be called more than once.
    public static func stream(
        length: Int64?, isReplayable: Bool = true, open: @escaping @Sendable () throws -> InputStream
    ) -> RequestBody {
        RequestBody(storage: .stream(open: open, length: length, isReplayable: isReplayable))
    }

    /// A body streamed from the file at `url` (a file URL), never held in memory: its length is
    /// read now and sent as `Content-Length`, and each send opens the file anew.
    ///
    /// ```swift
    /// try await client.perform(.putBlob, "photo.png", body: try .file(photoURL))
    /// ```
    public static func file(_ url: URL) throws(WebServiceError) -> RequestBody {
        let size: Int64
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            guard attributes[.type] as? FileAttributeType == .typeRegular,
                let bytes = (attributes[.size] as? NSNumber)?.int64Value
            else {
                throw WebServiceError.requestSerialization(
                    "'\(url.path)' is not a regular file: a body is read from a file")
            }
            size = bytes
        } catch let error as WebServiceError {
            throw error
        } catch {
            throw .requestSerialization("the body file '\(url.path)' cannot be read: \(error.localizedDescription)")
        }
        return .stream(length: size) {
            guard let stream = InputStream(url: url) else {
                throw WebServiceError.requestSerialization("the body file '\(url.path)' cannot be opened")
            }
            return stream
        }
    }

    /// The byte count, when known.
    public var length: Int64? {
        switch storage {
        case .data(let data): Int64(data.count)
        case .stream(_, let length, _): length
        }
    }

    /// Whether the body can be sent more than once.
    public var isReplayable: Bool {
        switch storage {
        case .data: true
        case .stream(_, _, let isReplayable): isReplayable
        }
    }

    /// Puts the body on `request` for one send; `sendCount` is how many times it was sent before.
    func attach(to request: inout WebServiceRequest, sendCount: Int) throws(WebServiceError) {
        switch storage {
        case .data(let data):
            request.httpBody = data
        case .stream(let open, let length, let isReplayable):
            guard sendCount == 0 || isReplayable else {
                throw .requestSerialization(
                    "the body stream was already sent once and cannot be read again for a retry or redirect")
            }
            do {
                request.httpBodyStream = try open()
            } catch let error as WebServiceError {
                throw error
            } catch {
                throw .requestSerialization("the body stream could not be opened: \(error)")
            }
            #if canImport(FoundationNetworking)
                // Foundation on Linux always sends a stream chunked (its libcurl layer treats the
                // length as unknown) and would put our Content-Length next to `Transfer-Encoding:
                // chunked`, which RFC 9112 §6.1 forbids: send it chunked, without Content-Length.
                _ = length
            #else
                if let length { request.setValue(String(length), forHTTPHeaderField: "Content-Length") }
            #endif
        }
    }
}
