import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one check of a request before any transport sees it: after every interceptor, `prepare`
/// and authentication provider has changed it, and before the cache or a transport reads it.
///
/// A request that passes has a method that is a token (RFC 9110 §9.1), an absolute `http` or
/// `https` URL with a host (RFC 9110 §4.2), header names that are tokens (RFC 9110 §5.1) and
/// header values without CR, LF, NUL or another control character but tab (RFC 9110 §5.5), and
/// a `Content-Length`, if any, that is the size of its body in memory (§8.6).
/// Anything else could let one request be read as two on the wire (request smuggling) or end the
/// header section early, so it fails the call with a typed error instead of being sent; transports
/// rely on it and do not check again.
///
/// It sees every value as it was set: a ``WebServiceRequest`` keeps a value with CR, LF or NUL
/// that Foundation's `URLRequest.setValue(_:forHTTPHeaderField:)` on Linux would have dropped.
enum RequestCheck {
    /// Throws the first reason `request` cannot be sent.
    static func check(_ request: WebServiceRequest) throws(WebServiceError) {
        if !HTTPToken.isToken(request.method) {
            throw .invalidCall("the method \(HTTPText.quoted(request.method)) is not a token (RFC 9110 §9.1)")
        }
        guard let url = request.url else { throw .invalidCall("the request has no URL") }
        switch url.scheme?.lowercased() {
        case "http", "https": break
        default:
            throw .invalidCall("\(HTTPText.quoted(url.absoluteString)) is not an http or https URL (RFC 9110 §4.2)")
        }
        guard let host = url.host, !host.isEmpty else {
            throw .invalidCall("\(HTTPText.quoted(url.absoluteString)) has no host (RFC 9110 §4.2.1)")
        }
        guard let fields = request.allHTTPHeaderFields else { return }
        try HeaderValidation.check(fields)
        // The bridge stage set it from the body; a network interceptor that changed the body
        // afterwards must change it too: URLSession would send it as it stands (RFC 9110 §8.6).
        if let body = request.httpBody,
            let length = fields.first(where: { $0.key.caseInsensitiveEquals("Content-Length") })?.value,
            length != String(body.count)
        {
            throw .invalidHeader(
                name: "Content-Length",
                reason:
                    "it says \(HTTPText.quoted(length)) but the body has \(body.count) bytes (RFC 9110 §8.6): an "
                    + "interceptor that changes the body must set Content-Length to its new size or remove it")
        }
    }
}

/// The stage of ``RequestCheck``: every attempt's request, after every interceptor and the
/// provider changed it, before the cache or any transport sees it; and once more after the
/// client's network interceptors, when it has any, since they change requests below the cache.
struct RequestCheckStage: InlineStage {
    /// This place is right below the network interceptors: the check runs only after them.
    var afterNetworkInterceptors = false

    func request(_ outgoing: inout Outgoing, of call: CallExchange) throws(WebServiceError) {
        if afterNetworkInterceptors, call.networkInterceptors.isEmpty { return }
        try RequestCheck.check(outgoing.request)
    }
}
