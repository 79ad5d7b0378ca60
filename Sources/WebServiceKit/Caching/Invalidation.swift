import Foundation

/// Invalidation after unsafe requests (RFC 9111 §4.4).
extension CacheRules {
    /// The methods RFC 9110 §9.2.1 defines as safe. Methods compare case-sensitively (§9.1), and
    /// any other method, known or not, counts as unsafe (§4.4: "including methods whose safety is
    /// unknown").
    static let safeMethods: Set<HTTPMethod> = [.get, .head, .options, .trace]

    /// The URIs whose stored responses must be invalidated (removed or marked stale) after a
    /// response with `status` to a request with `method` on `requestURL` (§4.4).
    ///
    /// Only a non-error response (2xx or 3xx) to an unsafe method invalidates: the target URI
    /// ("MUST"), and the `Location` and `Content-Location` URIs ("MAY"), resolved against the
    /// target URI, when they have the same origin (scheme, host and port, RFC 9110 §4.3.1): "a
    /// cache MUST NOT trigger an invalidation under these conditions if the origin ... of the URI
    /// to be invalidated differs from that of the target URI". The target comes first; no URI is
    /// listed twice.
    static func urisToInvalidate(requestURL: URL, method: HTTPMethod, status: Int, responseHeaders: HTTPHeaders)
        -> [URL]
    {
        guard !safeMethods.contains(method), (200..<400).contains(status) else { return [] }
        var uris = [requestURL]
        var keys: Set<String> = [cacheKey(for: requestURL)]
        for field in ["Location", "Content-Location"] {
            guard let value = responseHeaders[field]?.trimmingCharacters(in: .whitespaces), !value.isEmpty,
                let uri = URL(string: value, relativeTo: requestURL)?.absoluteURL,
                sameOrigin(uri, requestURL), keys.insert(cacheKey(for: uri)).inserted
            else { continue }
            uris.append(uri)
        }
        return uris
    }

    /// Whether two URIs have the same origin (RFC 9110 §4.3.1): scheme and host compared without
    /// regard to case, ports with their scheme's default filled in.
    static func sameOrigin(_ lhs: URL, _ rhs: URL) -> Bool {
        func origin(_ url: URL) -> (scheme: String, host: String, port: Int?)? {
            guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
            return (scheme, host, url.port ?? defaultPort(of: scheme))
        }
        guard let left = origin(lhs), let right = origin(rhs) else { return false }
        return left.scheme == right.scheme && left.host == right.host && left.port == right.port
    }
}

extension HTTPCache {
    /// Removes what a `method` request of `url` answered by `response` invalidates (§4.4,
    /// ``CacheRules/urisToInvalidate(requestURL:method:status:responseHeaders:)``): nothing for a
    /// safe method or an error status.
    func invalidate(after response: TransportResponse, to url: URL, method: HTTPMethod) {
        for stale in CacheRules.urisToInvalidate(
            requestURL: url, method: method, status: response.statusCode, responseHeaders: response.headers)
        {
            store.remove(CacheRules.cacheKey(for: stale))
        }
    }
}
