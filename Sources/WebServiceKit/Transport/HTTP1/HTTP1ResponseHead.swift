import Foundation

/// A response head: status line and header fields (RFC 9112 §4 and §5).
struct HTTP1ResponseHead: Sendable, Equatable {
    var statusCode: Int
    var headers: HTTPHeaders
    /// `HTTP/1.1`, `HTTP/1.0`, or another `HTTP/1.x`, read as 1.1 (RFC 9112 §2.3).
    var version = "HTTP/1.1"

    /// Whether the server keeps the connection open after this response (RFC 9112 §9.3): HTTP/1.1
    /// (or a later 1.x) without the `close` connection option. HTTP/1.0's `keep-alive` is not
    /// honoured: §9.3 leaves that to the recipient, and this client never asks for it.
    var keepsConnectionOpen: Bool {
        version != "HTTP/1.0" && !headers.listElements(for: "Connection").contains("close")
    }
}

/// Why a response could not be read.
struct HTTP1ParseError: Error, Equatable, CustomStringConvertible {
    /// The part of the response at fault.
    enum Kind: String, Sendable, Equatable {
        /// The connection closed before any byte of a response.
        case noResponse
        /// The connection closed inside the head or the body.
        case cutShort
        /// The status line is not `HTTP/1.x SP 3DIGIT [SP reason-phrase]` (RFC 9112 §4).
        case statusLine
        /// A header or trailer field line is malformed (RFC 9112 §5).
        case fieldLine
        /// The head or trailer section is larger than ``HTTP1ResponseParser/maximumHeadSize``.
        case sectionTooLarge
        /// `Content-Length` is not one decimal length (RFC 9112 §6.3 item 5).
        case contentLength
        /// A transfer coding this client does not decode, or `chunked` where it may not be (RFC
        /// 9112 §6.1).
        case transferCoding
        /// A chunk size line is not `1*HEXDIG [chunk-ext] CRLF`, or too large (RFC 9112 §7.1).
        case chunkSize
        /// A chunk extension does not follow RFC 9112 §7.1.1.
        case chunkExtension
        /// A chunk's data is not followed by CRLF (RFC 9112 §7.1).
        case chunkData
        /// A trailer field value holds CR, LF or NUL (RFC 9110 §5.5).
        case trailerValue
        /// `101 Switching Protocols`, which this client never asks for (RFC 9110 §15.2.2).
        case switchingProtocols
    }

    let kind: Kind
    let description: String

    init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
