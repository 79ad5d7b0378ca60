import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one check of every response a transport hands back, whatever transport read it, before
/// the cache stores it and before authentication, redirects, interceptors or the caller see it.
///
/// - A field name that is not a token (RFC 9110 §5.1), or a field value with CR, LF or NUL (RFC
///   9110 §5.5: "a recipient … MUST either reject the message or replace each of those
///   characters with SP"), fails the call with `URLError(.badServerResponse)`: such a value
///   could be echoed into a later request, a log line or a cache file. Other control characters
///   are kept, as §5.5 allows.
/// - A `Set-Cookie` field with such a value is dropped instead (RFC 6265 §5.2 has a user agent
///   ignore a cookie it cannot parse): one bad cookie never fails a call, and never enters a
///   request either.
enum ResponseCheck {
    /// `response` with its unsendable `Set-Cookie` fields dropped, or the reason it cannot be used.
    static func checked(_ response: TransportResponse) throws -> TransportResponse {
        var dropsCookies = false
        for field in response.headers {
            guard HTTPToken.isToken(field.name) else {
                throw URLError(
                    .badServerResponse,
                    reason:
                        "the response has a field name that is not a token (RFC 9110 §5.1): \(HTTPText.quoted(field.name, limit: 40))"
                )
            }
            guard breaksLines(field.value) else { continue }
            guard field.name.caseInsensitiveEquals("Set-Cookie") else {
                throw URLError(
                    .badServerResponse,
                    reason: "the response field \"\(field.name)\" has CR, LF or NUL in its value (RFC 9110 §5.5)")
            }
            dropsCookies = true
        }
        guard dropsCookies else { return response }
        var checked = response
        checked.headers = HTTPHeaders(
            response.headers.fields.filter { !($0.name.caseInsensitiveEquals("Set-Cookie") && breaksLines($0.value)) })
        return checked
    }

    /// Whether `value` has CR, LF or NUL (RFC 9110 §5.5).
    static func breaksLines(_ value: String) -> Bool {
        value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }
}

/// The stage of ``ResponseCheck``, right above the transport: the cache and the log above it
/// see only checked responses.
struct ResponseCheckStage: InlineStage {
    func response(_ answer: inout Answer, of call: CallExchange) throws(WebServiceError) {
        do {
            answer.response = try ResponseCheck.checked(answer.response)
        } catch {
            throw WebServiceError(transportError: error)
        }
    }
}
