import Foundation

/// What the cache keeps about a stored response to decide how to reuse it: everything but the
/// body.
///
/// Times are the client's clock (RFC 9111 §4.2.3): ``requestTime`` when the request that produced
/// the response was sent, ``responseTime`` when the response was received. Both matter for the
/// age of the response (``CacheRules/currentAge(of:now:)``).
struct CacheEntry: Sendable, Hashable {
    /// The method of the request that produced the response.
    var method: HTTPMethod
    /// The target URI of that request.
    var url: URL
    /// The response status code.
    var status: Int
    /// The stored response header fields (``CacheRules/headersToStore(_:)`` of the received ones).
    let responseHeaders: HTTPHeaders
    /// The `Cache-Control` directives of the stored response, parsed once: every decision about
    /// the entry reads them, a hit three times.
    let cacheControl: CacheControl
    /// The lowercased field names the stored response's `Vary` lists (`*` included), read once:
    /// selecting a variant reads them for every variant of the URL, a hit twice.
    let varyFieldNames: [String]
    /// When the request was sent (`request_time`, §4.2.3).
    var requestTime: Date
    /// When the response was received (`response_time`, §4.2.3).
    var responseTime: Date
    /// The request fields the response's `Vary` nominates (§4.1): lowercased names to values
    /// normalised by ``CacheRules/normalizedFieldValue(named:_:)``. A field the request did not have
    /// has no key.
    var varyingRequestHeaders: [String: String]

    /// An entry with every part given.
    init(
        method: HTTPMethod, url: URL, status: Int, responseHeaders: HTTPHeaders, requestTime: Date,
        responseTime: Date, varyingRequestHeaders: [String: String]
    ) {
        self.method = method
        self.url = url
        self.status = status
        self.responseHeaders = responseHeaders
        cacheControl = CacheControl(responseHeaders)
        varyFieldNames = CacheRules.varyFieldNames(responseHeaders)
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.varyingRequestHeaders = varyingRequestHeaders
    }

    /// The entry for a response just received: the fields that must not be stored are dropped
    /// (§3.1) and the request fields nominated by `Vary` are kept.
    init(
        method: HTTPMethod, url: URL, requestHeaders: HTTPHeaders, status: Int, responseHeaders: HTTPHeaders,
        requestTime: Date, responseTime: Date
    ) {
        let stored = CacheRules.headersToStore(responseHeaders)
        self.init(
            method: method, url: url, status: status, responseHeaders: stored, requestTime: requestTime,
            responseTime: responseTime,
            varyingRequestHeaders: CacheRules.varyingRequestHeaders(of: requestHeaders, nominatedBy: stored))
    }

    /// This entry freshened by a 304 (Not Modified) answer to a validation request (§4.3.4):
    /// the 304's fields update the stored ones (``CacheRules/merge304(stored:fresh:)``), the times
    /// become those of the validation exchange, and the varying request fields are taken again
    /// from the validating request in case `Vary` changed. The body stays as stored.
    func freshened(
        with304Headers headers: HTTPHeaders, requestHeaders: HTTPHeaders, requestTime: Date, responseTime: Date
    ) -> CacheEntry {
        CacheEntry(
            method: method, url: url, requestHeaders: requestHeaders, status: status,
            responseHeaders: CacheRules.merge304(stored: responseHeaders, fresh: headers), requestTime: requestTime,
            responseTime: responseTime)
    }

    /// The stored response's `Date`, `Expires`, `Last-Modified`… value, or `nil` when it is
    /// absent or invalid. Two-digit years are read relative to ``responseTime``.
    func date(_ field: String) -> Date? {
        responseHeaders[field].flatMap { HTTPDate.parse($0, relativeTo: responseTime) }
    }
}
