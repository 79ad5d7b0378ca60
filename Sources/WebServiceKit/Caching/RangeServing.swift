import Foundation

/// Answering a `Range` request from a stored full response (RFC 9110 §14, RFC 9111 §3.3, §3.4,
/// §4).
///
/// What the cache does with a `GET` that has a `Range` field:
/// - **one satisfiable byte range** (`bytes=0-99`, `bytes=100-`, `bytes=-50`): when the stored
///   200 would be served to the same request without `Range` (fresh, or once revalidated with a
///   304), it is served as a 206 (Partial Content, RFC 9110 §15.3.7) with `Content-Range: bytes
///   first-last/length` (§14.4), the range's `Content-Length`, and every other stored field, as
///   §15.3.7 asks of a single-part 206 (`Date`, `Cache-Control`, `ETag`, `Expires`, `Vary`…);
/// - **`If-Range`** (§13.1.5) that does not match the stored validator strongly: the full stored
///   200, which is what the origin sends then;
/// - **an invalid `bytes` field** (no `=`, `bytes=a-b`, `bytes=5-2`): the field is ignored, as
///   a server may (§14.2), and the full stored 200 is served;
/// - **several ranges**, **another unit** (`items=0-9`), **a range not satisfiable** in the
///   stored length, or a stored body that is not known to be the representation's bytes (see
///   ``bodyIsRepresentationData(_:bodyLength:)``): the request goes to the server as written,
///   without the cache's validators, and its answer comes back. The cache builds no
///   `multipart/byteranges` body and no 416 of its own: the origin, which may know a longer
///   representation, decides.
///
/// **Partial responses are not stored** (a 206 never enters the cache, nor a 416 to a request
/// with `Range`). §3.3 and §3.4 allow storing them and combining parts with the same strong
/// validator, but a stored part answers only requests wholly inside it, both stores would need
/// sparse bodies and a new disk format, and the library's range users are downloads to a file,
/// which are not cached at all. A 200 the server sends to a `Range` request (it ignored the
/// field) is a full response and is stored as any other.
enum RangeServing {
    /// Whether the cache may answer a request with `requestHeaders` as far as its `Range` goes:
    /// no `Range`, an invalid one (ignored, as a server may, RFC 9110 §14.2) or one byte range;
    /// not several ranges or another unit, which go to the server.
    static func cacheMayAnswer(_ requestHeaders: HTTPHeaders) -> Bool {
        switch RangeRequest(requestHeaders) {
        case nil, .invalid: true
        case .bytes(let specs): specs.count == 1
        case .otherUnit: false
        }
    }

    /// The stored response, when the cache may use it for a request with `requestHeaders`: as it
    /// is when the request has no single byte range; `nil` (the request goes to the server) when
    /// it asks one byte range that the stored response cannot answer (not a 200, a body not known
    /// to be the representation's bytes, or not satisfiable in its length).
    static func usable(_ stored: StoredResponse?, for requestHeaders: HTTPHeaders) -> StoredResponse? {
        guard let stored, let spec = RangeRequest(requestHeaders)?.singleByteRange else { return stored }
        guard stored.entry.status == 200,
            bodyIsRepresentationData(stored.entry.responseHeaders, bodyLength: stored.body.count),
            spec.resolved(length: Int64(stored.body.count)) != nil
        else { return nil }
        return stored
    }

    /// `response`, built by the cache from a stored response for a request with
    /// `requestHeaders`, cut to the request's byte range: a 206 for one satisfiable range whose
    /// `If-Range`, if any, matches; otherwise `response` as it is. A response from the network,
    /// one that is not a 200, or whose body is in a file, is never changed.
    static func answer(_ response: TransportResponse, to requestHeaders: HTTPHeaders) -> TransportResponse {
        guard response.source != .network, response.statusCode == 200, response.bodyFileLength == nil,
            let spec = RangeRequest(requestHeaders)?.singleByteRange,
            bodyIsRepresentationData(response.headers, bodyLength: response.body.count),
            ifRangeMatches(requestHeaders.values(for: "If-Range"), response.headers)
        else { return response }
        let length = Int64(response.body.count)
        guard let range = spec.resolved(length: length) else { return response }
        let start = response.body.startIndex + Int(range.lowerBound)
        let end = response.body.startIndex + Int(range.upperBound) + 1
        var partial = response
        partial.statusCode = 206
        partial.body = Data(response.body[start..<end])
        partial.headers["Content-Range"] = "bytes \(range.lowerBound)-\(range.upperBound)/\(length)"
        partial.headers["Content-Length"] = String(end - start)
        return partial
    }

    /// Whether a stored body of `bodyLength` bytes is the representation's data as the origin
    /// sent it, the bytes a range counts (RFC 9110 §14.1.2, after any content coding): its
    /// `Content-Length`, when present, equals the body's length, and it has either that field or
    /// a `Content-Encoding`. The transports decode `gzip` and `deflate` bodies and then drop both
    /// fields (``ResponseDecoding/decodedHeaders(_:)``): positions in a decoded body are not the
    /// origin's, so such a body, or a chunked one that cannot be told from it, answers no range.
    /// A coding passed through unchanged (`x-custom`) keeps its field and its bytes.
    static func bodyIsRepresentationData(_ headers: HTTPHeaders, bodyLength: Int) -> Bool {
        let lengths = headers.values(for: "Content-Length")
        if lengths.isEmpty { return !headers.listElements(for: "Content-Encoding").isEmpty }
        return lengths.allSatisfy { $0.trimmingCharacters(in: .whitespaces) == String(bodyLength) }
    }

    /// Whether the `If-Range` field values `values` let the range be served from a response with
    /// `headers` (RFC 9110 §13.1.5); `true` without the field.
    ///
    /// An entity tag matches by strong comparison (§8.8.3.2: neither weak, the same opaque tag):
    /// "a server MUST NOT ... use a weak entity tag" there. A date matches when it is the instant
    /// of the response's `Last-Modified` and that is a strong validator, which §8.8.2.2 allows
    /// only when the response's `Date` is at least one second later. Anything else (several
    /// fields, an unreadable value) does not match, and the full response is served.
    static func ifRangeMatches(_ values: [String], _ headers: HTTPHeaders) -> Bool {
        guard !values.isEmpty else { return true }
        guard values.count == 1 else { return false }
        let value = values[0].trimmingCharacters(in: .whitespaces)
        if value.hasPrefix("\"") || value.hasPrefix("W/") {
            guard let etag = headers["ETag"]?.trimmingCharacters(in: .whitespaces) else { return false }
            return isStrongEntityTag(value) && isStrongEntityTag(etag) && value == etag
        }
        let reference = Date()
        guard let date = HTTPDate.parse(value, relativeTo: reference),
            let lastModifiedText = headers["Last-Modified"],
            let lastModified = HTTPDate.parse(lastModifiedText, relativeTo: reference),
            let responseDateText = headers["Date"],
            let responseDate = HTTPDate.parse(responseDateText, relativeTo: reference)
        else { return false }
        return date == lastModified && responseDate.timeIntervalSince(lastModified) >= 1
    }

    /// A strong entity tag (RFC 9110 §8.8.3): `"` then `etagc` characters (`!`, `#` to `~`,
    /// obs-text) then `"`.
    static func isStrongEntityTag(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"") else {
            return false
        }
        return bytes.dropFirst().dropLast().allSatisfy { $0 == 0x21 || (0x23...0x7E).contains($0) || $0 >= 0x80 }
    }
}
