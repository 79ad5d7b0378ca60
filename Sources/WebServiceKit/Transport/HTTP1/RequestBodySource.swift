import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a request's body comes from, a piece at a time: its bytes in memory, or a stream
/// read off the loop by a ``BodyStreamFeed``. Decides how the body goes out: with the head
/// when it is small, else in pieces after it (chunked when its length is unknown), asking
/// `Expect: 100-continue` from ``expectContinueThreshold``.
struct RequestBodySource {
    private enum Content {
        case none
        case data(Data)
        case stream(BodyStreamFeed)
    }

    private let content: Content
    /// The body's length; `nil` for a stream of unknown length.
    let length: Int64?
    /// How far a body in memory was handed out.
    private var offset = 0

    /// Bodies from this size on ask `Expect: 100-continue` (curl's threshold).
    static let expectContinueThreshold: Int64 = 1024 * 1024
    /// How long to wait for `100 Continue` before sending anyway (RFC 9110 §10.1.1), in ms.
    static let continueWait: UInt64 = 1000
    /// The size of one piece of the body.
    static let pieceSize = 512 * 1024
    /// The last chunk of a chunked body.
    static let lastChunk = Array("0\r\n\r\n".utf8)

    /// The body of `request`: its stream (of `streamLength` bytes, `nil` unknown), read on one
    /// of `readers`' queues, or its bytes.
    init(_ request: WebServiceRequest, streamLength: Int64?, readers: BodyStreamReader) {
        if let stream = request.httpBodyStream {
            content = .stream(BodyStreamFeed(stream: stream, length: streamLength, queue: readers.nextQueue()))
            length = streamLength
        } else if let data = request.httpBody {
            content = .data(data)
            self.length = Int64(data.count)
        } else {
            content = .none
            self.length = nil
        }
    }

    /// What ``HTTP1ConnectionMachine`` needs to know of `request` with this body: how the body
    /// goes out and whether it can go again, the expectation, and the rest as given.
    func machineRequest(for request: WebServiceRequest, keepsAlive: Bool, maySendAgain: Bool, deadline: UInt64?)
        -> HTTP1ConnectionMachine.Request
    {
        let expectation = request.value(forHTTPHeaderField: "Expect").map { $0.lowercased() == "100-continue" }
        return HTTP1ConnectionMachine.Request(
            body: kind(expectation: expectation), expectsContinue: expectsContinue(expectation: expectation),
            keepsAlive: keepsAlive, maySendAgain: maySendAgain, bodyRereadable: isRereadable, deadline: deadline)
    }

    /// The head's framing for a body that goes out as `kind`: its length, chunked, or for no body
    /// what the method asks (``HTTP1Transport/framing(of:method:)``).
    func framing(for kind: HTTP1ConnectionMachine.Request.Body, method: String) -> HTTP1RequestHead.Framing {
        switch kind {
        case .none: HTTP1Transport.framing(of: nil, method: method)
        case .withHead: .length(length ?? 0)
        case .pieces(let chunked): chunked ? .chunked : .length(length ?? 0)
        }
    }

    /// The head of `request` as `kind` frames the body, followed by the body when it goes with
    /// the head; `bodyBytes` of them are the body's.
    func head(
        of request: WebServiceRequest, method: String, url: URL, as kind: HTTP1ConnectionMachine.Request,
        forwardProxy: ProxyRoute? = nil
    ) -> (bytes: [UInt8], bodyBytes: Int) {
        var bytes =
            HTTP1RequestHead(
                method: method, url: url, fields: request.allHTTPHeaderFields ?? [:],
                framing: framing(for: kind.body, method: method), expectsContinue: kind.expectsContinue,
                keepsAlive: kind.keepsAlive, forwardProxy: forwardProxy
            ).bytes
        guard kind.body == .withHead, case .data(let data) = content else { return (bytes, 0) }
        bytes.append(contentsOf: data)
        return (bytes, data.count)
    }

    /// `piece` as it goes on the wire: as it is, or as one chunk (RFC 9112 §7.1).
    static func framed(_ piece: [UInt8], chunked: Bool) -> [UInt8] {
        guard chunked else { return piece }
        return Array((String(piece.count, radix: 16) + "\r\n").utf8) + piece + Array("\r\n".utf8)
    }

    /// How the body goes out, given the request's own `Expect: 100-continue` (`nil`: it has
    /// no `Expect`): a body in memory of at most ``HTTP1Transport/keptAliveBodyLimit`` bytes
    /// with the head, unless the request expects `100 Continue`.
    func kind(expectation: Bool?) -> HTTP1ConnectionMachine.Request.Body {
        switch content {
        case .none: .none
        case .data(let data) where data.count <= HTTP1Transport.keptAliveBodyLimit && expectation != true:
            .withHead
        case .data, .stream: .pieces(chunked: length == nil)
        }
    }

    /// Whether the head asks `Expect: 100-continue`: as the request says, else for a body
    /// in pieces from ``expectContinueThreshold`` or of unknown length.
    func expectsContinue(expectation: Bool?) -> Bool {
        guard case .pieces = kind(expectation: expectation) else { return false }
        return expectation ?? ((length ?? .max) >= Self.expectContinueThreshold)
    }

    /// Whether a body of known length sent in pieces is whole on the wire once `sent` of its
    /// bytes went out (its source checked the last piece was the last): then its end is known
    /// without asking the source, before any answer is read.
    func isWhole(afterSending sent: Int64, as kind: HTTP1ConnectionMachine.Request.Body) -> Bool {
        kind == .pieces(chunked: false) && sent >= length ?? .max
    }

    /// Whether the body can be sent again from its start once a piece was taken.
    var isRereadable: Bool {
        if case .stream = content { return false }
        return true
    }

    /// Hands the next piece (`nil` at the end) to `completion`, on a reader's queue for a
    /// stream, at once for a body in memory.
    mutating func next(_ completion: @escaping @Sendable (Result<[UInt8]?, WebServiceError>) -> Void) {
        if case .stream(let feed) = content { return feed.next(limit: Self.pieceSize, completion) }
        completion(nextNow())
    }

    /// The next piece (`nil` at the end), read on the calling thread (a stream may block it).
    mutating func nextNow() -> Result<[UInt8]?, WebServiceError> {
        switch content {
        case .none:
            return .success(nil)
        case .data(let data):
            let end = min(data.count, offset + Self.pieceSize)
            guard offset < end else { return .success(nil) }
            let piece = [UInt8](data[(data.startIndex + offset)..<(data.startIndex + end)])
            offset = end
            return .success(piece)
        case .stream(let feed):
            return feed.readNow(limit: Self.pieceSize)
        }
    }

    /// The body goes again from its start (a body in memory; a stream is never rewound).
    mutating func rewind() { offset = 0 }

    /// Closes a stream once.
    func close() {
        if case .stream(let feed) = content { feed.close() }
    }
}
