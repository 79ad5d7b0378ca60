import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How the direct path treats a response's content coding (RFC 9110 §8.4): `gzip`, `x-gzip` and
/// `deflate`, alone or stacked, are decoded as the body arrives; any other coding passes through
/// unchanged, with its `Content-Encoding` field, for the caller to read (the session route's
/// libcurl decodes `br` and `zstd` too, and refuses any other coding).
///
/// A decoded response loses its `Content-Encoding` and `Content-Length` fields, which describe
/// the bytes on the wire and no longer the body (OkHttp's bridge does the same when it decodes).
/// A `206` is never decoded: its range counts bytes of the encoded representation (RFC 9110
/// §14.1.1), and a part of a gzip stream does not decode on its own. Nor is a response that has
/// no body (to HEAD, 1xx, 204, 304: RFC 9110 §6.4.1), whose fields then stay as they came.
///
/// Transfer codings (RFC 9112 §7) are another matter: they belong to the message, not the
/// representation, and are always decoded, a `206`'s too; the parser accepts only those this path
/// decodes (``HTTP1ResponseParser/transferCodings``). They are decoded first, then the content
/// codings when this path decodes them all.
enum ResponseDecoding {
    /// The codings both routes decode: the direct path here, the session through libcurl (or
    /// Apple's URL loading system), each then giving the decoded body.
    static let decodedCodings: Set<String> = ["gzip", "x-gzip", "deflate", "identity"]

    /// The decoder for the body of a final response with `statusCode` and `headers` to a request
    /// with `method`, whose body came with `transferCodings` (the parser's, in the order they were
    /// applied), and the fields of the decoded response; `nil` when the body passes through as it
    /// is. `outputLimit` bounds the decoded bytes.
    static func decoder(
        method: String, statusCode: Int, headers: HTTPHeaders, transferCodings: [String] = [], outputLimit: Int
    ) throws -> (decoder: ContentDecoder, headers: HTTPHeaders)? {
        let contentCodings =
            hasDecodableBody(method: method, statusCode: statusCode)
            ? headers.listElements(for: "Content-Encoding") : []
        guard !contentCodings.isEmpty || !transferCodings.isEmpty else { return nil }
        do {
            // Content codings were applied first (by the origin), transfer codings after them.
            if !contentCodings.isEmpty,
                let decoder = try ContentDecoder(codings: contentCodings + transferCodings, outputLimit: outputLimit)
            {
                return (decoder, decodedHeaders(headers))
            }
            guard !transferCodings.isEmpty,
                let decoder = try ContentDecoder(codings: transferCodings, outputLimit: outputLimit)
            else { return nil }
            var decoded = headers
            decoded["Content-Length"] = nil
            return (decoder, decoded)
        } catch {
            throw failure(error, statusCode: statusCode, limit: outputLimit)
        }
    }

    /// Whether a response to `method` with `statusCode` has a body a coding applies to.
    static func hasDecodableBody(method: String, statusCode: Int) -> Bool {
        method != "HEAD" && statusCode >= 200 && statusCode != 204 && statusCode != 206 && statusCode != 304
    }

    /// The codings the session decodes: those of ``decodedCodings`` and `br`, and on Linux `zstd`.
    /// libcurl decodes `br` and `zstd` when it is built with them, and fails the transfer on any
    /// coding it does not decode ("Unrecognized content encoding type"), so a body it delivered
    /// under these codings is decoded; Apple's URL loading system decodes `br` too.
    #if canImport(FoundationNetworking)
        static let sessionDecodedCodings: Set<String> = decodedCodings.union(["br", "zstd"])
    #else
        static let sessionDecodedCodings: Set<String> = decodedCodings.union(["br"])
    #endif

    /// The fields of a response the session decoded (it decodes every coding of
    /// ``sessionDecodedCodings`` and fails on others it does not know), made to say what the
    /// direct path says of the same answer: a `br` body decoded by libcurl no longer claims to be
    /// `br`, nor to have the length it had on the wire (which the cache would store and serve).
    static func sessionHeaders(_ headers: HTTPHeaders, method: String, statusCode: Int) -> HTTPHeaders {
        guard hasDecodableBody(method: method, statusCode: statusCode) else { return headers }
        let codings = headers.listElements(for: "Content-Encoding")
        guard !codings.isEmpty, codings.allSatisfy(sessionDecodedCodings.contains) else { return headers }
        return decodedHeaders(headers)
    }

    /// The fields of a decoded response: those of the response less the ones about its coding.
    static func decodedHeaders(_ headers: HTTPHeaders) -> HTTPHeaders {
        var headers = headers
        headers["Content-Encoding"] = nil
        headers["Content-Length"] = nil
        return headers
    }

    /// The error a decoding failure ends the call with: a body over the limit is
    /// ``WebServiceError/responseTooLarge(limit:statusCode:)`` as for a plain body, a malformed
    /// one `URLError(.cannotDecodeContentData)` with the reason.
    static func failure(_ error: any Error, statusCode: Int, limit: Int) -> any Error {
        guard let error = error as? ContentDecodingError else { return error }
        if case .outputLimitExceeded = error {
            return WebServiceError.responseTooLarge(limit: limit, statusCode: statusCode)
        }
        return URLError(.cannotDecodeContentData, reason: "the response body could not be decoded: \(error)")
    }
}
