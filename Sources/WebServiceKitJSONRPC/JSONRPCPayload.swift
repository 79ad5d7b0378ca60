import Foundation

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// The body of a JSON-RPC response as a ``JSONRPCEndpoint``'s call reads it: one response
/// object, an array of them (a batch), or nothing (only notifications were sent).
///
/// The envelopes are checked when the body is read (`"jsonrpc": "2.0"`, an id that is a number,
/// a string or `null`, exactly one of `result` and `error`); results are decoded into their
/// declared types only when a request's value is asked for, straight from the body, with the
/// endpoint's decoder or the client's ``WebServiceClient/jsonDecoder``.
///
/// You do not usually see this type: ``WebServiceClient/perform(_:_:_:arguments:progress:)`` and
/// the batch forms return the typed results. It is the `Response` of ``JSONRPCEndpoint/call``,
/// so a `StubTransport` stub or an interceptor can be aimed at the endpoint.
public struct JSONRPCPayload: Sendable {
    /// What the body held.
    enum Shape: Sendable {
        case empty
        case single(Head)
        case batch([Head])
    }

    /// A response object without its result: what matching needs.
    struct Head: Sendable, Decodable {
        let id: JSONRPCID?
        let error: JSONRPCError?

        private enum Key: String, CodingKey {
            case jsonrpc, id, result, error
        }

        init(from decoder: any Decoder) throws {
            let object = try decoder.container(keyedBy: Key.self)
            let version = try? object.decodeIfPresent(String.self, forKey: .jsonrpc)
            guard version == "2.0" else { throw JSONRPCResponseError.unsupportedVersion(version) }
            id = try object.decodeIfPresent(JSONRPCID.self, forKey: .id)
            // A null "error" beside a result (JSON-RPC 1.0 style) counts as no error.
            error = try object.decodeIfPresent(JSONRPCError.self, forKey: .error)
            let hasResult = object.contains(.result)
            if hasResult, error != nil { throw JSONRPCResponseError.resultAndError(id: id) }
            if !hasResult, error == nil { throw JSONRPCResponseError.neitherResultNorError(id: id) }
        }
    }

    let shape: Shape
    /// The body in UTF-8, kept to decode results from.
    let body: Data
    /// Decodes results; `nil` for an empty body, which has none.
    let decoder: JSONDecoder?
    /// Where each response object of a batch is in ``body``, in order.
    var elements: [Range<Data.Index>]? = nil
}

/// Reads a JSON-RPC response body into a ``JSONRPCPayload``.
struct JSONRPCResponseSerializer: ResponseSerializer {
    /// The decoder of results; `nil` uses the client's.
    let decoder: JSONDecoder?

    /// Envelopes are read with a decoder of their own: the client's key strategy must not rename
    /// `jsonrpc`, `id`, `result` or `error`, nor the members of an error's `data`.
    static let envelopeDecoder = JSONDecoder()

    func deserialize(_ body: Data, context: ResponseContext) throws -> JSONRPCPayload {
        let data = try JSONText.utf8(body, context: context)
        let shape: JSONRPCPayload.Shape
        var elements: [Range<Data.Index>]?
        switch JSONText.firstSignificantByte(of: data) {
        case UInt8(ascii: "{"): shape = .single(try Self.envelopeDecoder.decode(JSONRPCPayload.Head.self, from: data))
        case UInt8(ascii: "["):
            let heads = try Self.envelopeDecoder.decode([JSONRPCPayload.Head].self, from: data)
            shape = .batch(heads)
            elements = JSONText.arrayElementRanges(of: data).flatMap { $0.count == heads.count ? $0 : nil }
        case nil: shape = .empty
        default: throw JSONRPCResponseError.notAResponse("the body is not a JSON object or array")
        }
        return JSONRPCPayload(
            shape: shape, body: data, decoder: decoder ?? context.defaultJSONDecoder, elements: elements)
    }

    func emptyValue() -> JSONRPCPayload? { JSONRPCPayload(shape: .empty, body: Data(), decoder: nil) }
}

extension JSONRPCPayload {
    /// A ``WebServiceError/decoding(_:)`` failure about this body.
    func failure(_ underlying: any Error, statusCode: Int) -> WebServiceError {
        .decoding(WebServiceError.DecodingFailure(underlying: underlying, body: body, statusCode: statusCode))
    }

    /// Decodes the `result` of the response object at `position` in a batch, or of the single
    /// response object when `position` is `nil`: from that object's own bytes when they are
    /// known, so a batch's results cost one pass over the body in all.
    func result<Result: Decodable & Sendable>(_: Result.Type, inElement position: Int?, statusCode: Int)
        throws(WebServiceError) -> Result
    {
        let source: Data
        let path: [String]
        switch (position, elements) {
        case (nil, _): (source, path) = (body, ["result"])
        case (let position?, let elements?): (source, path) = (body[elements[position]], ["result"])
        case (let position?, nil): (source, path) = (body, [String(position), "result"])
        }
        do {
            // The core's JSON serializer reads the value at `path`, a decimal step indexing an array.
            return try JSONResponseSerializer<Result>(decoder: decoder ?? JSONDecoder())
                .deserialize(source, context: ResponseContext(statusCode: statusCode, serializationRoot: path))
        } catch {
            throw failure(error, statusCode: statusCode)
        }
    }

    /// The value of the single request whose id is `id`.
    func value<Result: Decodable & Sendable>(of _: Result.Type, id: JSONRPCID, statusCode: Int) throws(WebServiceError)
        -> Result
    {
        switch shape {
        case .empty:
            throw .emptyBody(statusCode: statusCode)
        case .batch:
            throw failure(
                JSONRPCResponseError.unexpectedShape("an array of responses answered a single request"),
                statusCode: statusCode)
        case .single(let head):
            // A null id with an error: the server could not read the request's id (parse error,
            // invalid request), so the error is about this request.
            if let error = head.error, head.id == nil || head.id == id {
                throw .application(error, statusCode: statusCode)
            }
            guard head.id == id else {
                throw failure(JSONRPCResponseError.idMismatch(expected: id, received: head.id), statusCode: statusCode)
            }
            return try result(Result.self, inElement: nil, statusCode: statusCode)
        }
    }

    /// Checks the answer to notifications only: nothing is expected, but an error object that
    /// answers the whole request (the server could not parse it) fails the call.
    func checkNotificationsAnswer(statusCode: Int) throws(WebServiceError) {
        if case .single(let head) = shape, head.id == nil, let error = head.error {
            throw .application(error, statusCode: statusCode)
        }
    }

    /// The error object of a body that is a single error response, for responses refused by
    /// status.
    static func errorObject(in body: Data) -> JSONRPCError? {
        guard JSONText.firstSignificantByte(of: body) == UInt8(ascii: "{"),
            let head = try? JSONRPCResponseSerializer.envelopeDecoder.decode(Head.self, from: body)
        else { return nil }
        return head.error
    }
}
