import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How the client follows a redirect itself (RFC 9110 §15.4).
enum RedirectRule {
    /// Fields that carry credentials: they never follow a redirect to another origin.
    static let credentialFields = ["Authorization", "Proxy-Authorization", "Cookie"]
    /// Fields that describe a body: they go when the redirect drops the body.
    static let contentFields = ["Content-Type", "Content-Length", "Content-Encoding", "Content-Language"]

    /// The request to send after `response`, or `nil` when it is not a redirect to follow.
    static func nextRequest(after response: TransportResponse, to request: WebServiceRequest) -> WebServiceRequest? {
        guard [301, 302, 303, 307, 308].contains(response.statusCode), let location = response.headers["Location"],
            let current = request.url, let target = URL(string: location, relativeTo: current)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return nil }
        var next = request
        next.url = target
        let method = request.method
        // §15.4.4: 303 means "GET the result". §15.4.2/§15.4.3: for 301 and 302 user agents
        // change POST to GET, as every browser does; 307 and 308 keep the method and the body.
        let becomesGet =
            (response.statusCode == 303 && method != "HEAD")
            || ([301, 302].contains(response.statusCode) && method == "POST")
        if becomesGet {
            next.method = "GET"
            next.httpBody = nil
            for field in contentFields { next.setValue(nil, forHTTPHeaderField: field) }
        }
        if !Origin(current).matches(target) {
            for field in credentialFields { next.setValue(nil, forHTTPHeaderField: field) }
        }
        return next
    }
}
