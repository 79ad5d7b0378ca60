/// An HTTP request method (RFC 9110 §9).
///
/// The standard methods are available as static members; any other method token can be written
/// as a string literal (`"PROPFIND"`). A method that is not a valid `token` (RFC 9110 §5.6.2)
/// makes the descriptor invalid: every call fails with ``WebServiceError/invalidCall(_:)``.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The method token exactly as it is sent.
    public let rawValue: String

    /// Creates a method from its token.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a method from a string literal such as `"PROPFIND"`.
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }

    public static let get: HTTPMethod = "GET"
    public static let head: HTTPMethod = "HEAD"
    public static let post: HTTPMethod = "POST"
    public static let put: HTTPMethod = "PUT"
    public static let patch: HTTPMethod = "PATCH"
    public static let delete: HTTPMethod = "DELETE"
    public static let options: HTTPMethod = "OPTIONS"
    public static let trace: HTTPMethod = "TRACE"
    public static let connect: HTTPMethod = "CONNECT"

    /// Whether the method is a valid RFC 9110 `token`.
    var isValidToken: Bool { HTTPToken.isToken(rawValue) }

    /// Whether a request with the method `token` may be sent more than once with the effect of
    /// once (RFC 9110 §9.2.2: GET, HEAD, OPTIONS, TRACE, PUT and DELETE). Tokens are
    /// case-sensitive (§9.1): `get` is not GET. The one rule for the retry policy and for a
    /// request that meets a kept-alive connection the server has just closed.
    static func isIdempotent(_ token: String) -> Bool {
        switch token {
        case "GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE": true
        default: false
        }
    }

    /// Whether a request with this method carries the call's leftover argument as its body by default.
    var takesBodyByDefault: Bool { self == .post || self == .put || self == .patch }
}
