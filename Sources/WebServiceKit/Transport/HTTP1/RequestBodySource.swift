#if os(Linux) && canImport(CWebServiceKitSystem)
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
        init(_ request: URLRequest, streamLength: Int64?, readers: BodyStreamReader) {
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

        /// Whether the body can be sent again from its start once a piece was taken.
        var isRereadable: Bool {
            if case .stream = content { return false }
            return true
        }

        /// The whole body in memory, for a body that goes with the head.
        var whole: [UInt8] {
            if case .data(let data) = content { return [UInt8](data) }
            return []
        }

        /// Hands the next piece (`nil` at the end) to `completion`, on a reader's queue for a
        /// stream, at once for a body in memory.
        mutating func next(_ completion: @escaping @Sendable (Result<[UInt8]?, WebServiceError>) -> Void) {
            switch content {
            case .none:
                completion(.success(nil))
            case .data(let data):
                let end = min(data.count, offset + Self.pieceSize)
                guard offset < end else { return completion(.success(nil)) }
                let piece = [UInt8](data[(data.startIndex + offset)..<(data.startIndex + end)])
                offset = end
                completion(.success(piece))
            case .stream(let feed):
                feed.next(limit: Self.pieceSize, completion)
            }
        }

        /// The body goes again from its start (a body in memory; a stream is never rewound).
        mutating func rewind() { offset = 0 }

        /// Closes a stream once.
        func close() {
            if case .stream(let feed) = content { feed.close() }
        }
    }
#endif
