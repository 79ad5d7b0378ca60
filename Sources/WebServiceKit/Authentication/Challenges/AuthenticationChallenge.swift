/// One challenge from a `WWW-Authenticate` or `Proxy-Authenticate` response field (RFC 9110 §11.6.1).
///
/// A challenge names an auth-scheme and carries either a list of parameters or a single
/// `token68`:
///
/// ```
/// challenge  = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
/// auth-param = token BWS "=" BWS ( token / quoted-string )
/// ```
///
/// Use ``parse(_:)-([String])`` to read the challenges of one or more field values:
///
/// ```swift
/// let challenges = try AuthenticationChallenge.parse([
///     #"Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=SHA-256, nonce="7ypf""#
/// ])
/// if let digest = challenges.first(where: { $0.hasScheme("Digest") }) {
///     print(digest[parameter: "realm"] ?? "")  // http-auth@example.org
/// }
/// ```
///
/// Scheme names and parameter names are case-insensitive (RFC 9110 §11.1, §11.2): ``scheme`` keeps
/// the spelling the server sent, ``parameters`` is keyed by the lowercased name, and two challenges
/// are equal when their schemes match ignoring case and their parameters and token68 are equal.
/// Parameter values are case-sensitive and kept exactly as sent, without quotes or escapes.
public struct AuthenticationChallenge: Sendable, Hashable {
    /// The auth-scheme as the server sent it (`Basic`, `digest`, `Bearer`…).
    ///
    /// Scheme names are case-insensitive: compare them with ``hasScheme(_:)``, not `==`.
    public let scheme: String

    /// The auth-params, keyed by lowercased parameter name, with their values unquoted and
    /// unescaped (`realm="a \"b\""` gives `["realm": #"a "b""#]`).
    ///
    /// Empty when the challenge has a ``token68`` or no data at all (`Negotiate`). Prefer
    /// ``subscript(parameter:)``, which lowercases the name for you.
    public let parameters: [String: String]

    /// The single token68 that follows the scheme instead of parameters (`Negotiate YIIBxw==`), or
    /// `nil` when the challenge has parameters or nothing after its scheme.
    public let token68: String?

    /// The largest input ``parse(_:)-([String])`` accepts: 16 KiB of UTF-8, counting the field
    /// values as if joined with `", "`.
    public static let maximumInputLength = 16 * 1024

    /// Makes a challenge.
    ///
    /// - Parameters:
    ///   - scheme: The auth-scheme, in any case.
    ///   - parameters: The auth-params. Their names are lowercased; when two names differ only in
    ///     case, the value of the name that sorts first (as given) is kept.
    ///   - token68: The token68 sent instead of parameters, if any.
    public init(scheme: String, parameters: [String: String] = [:], token68: String? = nil) {
        var normalized: [String: String] = [:]
        normalized.reserveCapacity(parameters.count)
        for name in parameters.keys.sorted() {
            let key = name.lowercased()
            if normalized[key] == nil { normalized[key] = parameters[name] }
        }
        self.init(uncheckedScheme: scheme, parameters: normalized, token68: token68)
    }

    /// Makes a challenge whose parameter names are already lowercased (used by the parser).
    init(uncheckedScheme scheme: String, parameters: [String: String], token68: String?) {
        self.scheme = scheme
        self.parameters = parameters
        self.token68 = token68
    }

    /// The value of the parameter called `name`, compared case-insensitively (`"Realm"` finds
    /// `realm`), or `nil` when the challenge does not have it.
    public subscript(parameter name: String) -> String? {
        parameters[name.lowercased()]
    }

    /// Whether the challenge's scheme is `name`, ignoring case (`hasScheme("digest")` is `true`
    /// for `Digest`).
    public func hasScheme(_ name: String) -> Bool {
        scheme.lowercased() == name.lowercased()
    }

    /// Whether two challenges have the same scheme (ignoring case), parameters and token68.
    public static func == (lhs: AuthenticationChallenge, rhs: AuthenticationChallenge) -> Bool {
        lhs.hasScheme(rhs.scheme) && lhs.parameters == rhs.parameters && lhs.token68 == rhs.token68
    }

    /// Hashes the lowercased scheme, the parameters and the token68, consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(scheme.lowercased())
        hasher.combine(parameters)
        hasher.combine(token68)
    }

    /// Reads the challenges of one or more `WWW-Authenticate` or `Proxy-Authenticate` field values,
    /// in order.
    ///
    /// Each value is a comma-separated list of challenges (RFC 9110 §11.6.1, §5.6.1); commas also
    /// separate the parameters of a challenge, so a new challenge starts at a token followed by
    /// whitespace and then something other than `=` (`…, Digest realm="b"`), or by a comma or the
    /// end (`Negotiate, NTLM`). Foundation may join several fields into one value with `", "`;
    /// that is the same thing as several challenges in one value. Empty list elements and
    /// whitespace around commas are skipped, and an empty field value adds no challenge.
    ///
    /// After a scheme and whitespace, a run of token68 characters ending the element
    /// (`Bearer abc.def-ghi_jkl~+/==`) is the challenge's token68. As `=` also starts a parameter
    /// value, a run that ends in `=` is a token68 only when its length is a multiple of four, as
    /// padded base64 and base32 always are: `Basic realm=` is a parameter with its value missing.
    ///
    /// A parameter that follows a challenge with no data after its scheme (`Basic, realm="x"`)
    /// belongs to that challenge.
    ///
    /// - Parameter headerValues: The field values, one per header field line.
    /// - Returns: The challenges, at least one.
    /// - Throws: ``ChallengeParseError`` when a value breaks the grammar (unterminated quoted
    ///   string, missing `=` or value, control character, a parameter given twice in a challenge…),
    ///   when there is no challenge at all, or when the input is longer than
    ///   ``maximumInputLength``.
    public static func parse(_ headerValues: [String]) throws(ChallengeParseError) -> [AuthenticationChallenge] {
        try ChallengeParser.parse(headerValues)
    }

    /// Reads the challenges of a single `WWW-Authenticate` or `Proxy-Authenticate` field value.
    ///
    /// The same as ``parse(_:)-([String])`` with one value.
    public static func parse(_ headerValue: String) throws(ChallengeParseError) -> [AuthenticationChallenge] {
        try ChallengeParser.parse([headerValue])
    }
}

/// Why a `WWW-Authenticate` or `Proxy-Authenticate` field value could not be read, and where.
public struct ChallengeParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the input.
    public enum Reason: Sendable, Hashable {
        /// The field values hold no challenge: there are none, or they are empty, blank or only
        /// commas.
        case noChallenge
        /// The field values together are longer than `limit` bytes of UTF-8
        /// (``AuthenticationChallenge/maximumInputLength``).
        case inputTooLong(limit: Int)
        /// A character no field value may hold: a control character other than horizontal tab
        /// (CR, LF, NUL…), inside or outside a quoted string.
        case invalidCharacter(Unicode.Scalar)
        /// An auth-scheme or a parameter name should start here, but `found` cannot start a token
        /// (`=`, `"`, `@`…).
        case expectedToken(found: Unicode.Scalar)
        /// The parameter name is not followed by `=` (`realm "x"`).
        case missingEquals(parameter: String)
        /// The `=` after the parameter name is followed by neither a token nor a quoted string
        /// (`realm=`, `realm=, …`, `realm==`).
        case missingValue(parameter: String)
        /// A quoted string has no closing quote; the position is that of the opening quote.
        case unterminatedQuotedString
        /// A complete element (a parameter, a token68, a scheme) is followed by `found` instead of
        /// a comma or the end of the value (`realm="a" b`).
        case expectedComma(found: Unicode.Scalar)
        /// The parameter occurs twice in one challenge (names compared ignoring case), which
        /// RFC 9110 §11.2 forbids. The name is lowercased.
        case duplicateParameter(String)
        /// A parameter comes before any auth-scheme (`realm="x"`).
        case missingScheme(parameter: String)
        /// A parameter follows a challenge that has a token68; a challenge has one or the other.
        case parameterAfterToken68(parameter: String)
    }

    /// What is wrong.
    public let reason: Reason
    /// The index, in the array given to ``AuthenticationChallenge/parse(_:)-([String])``, of the
    /// field value with the error.
    public let fieldIndex: Int
    /// The offset, in bytes of UTF-8 from the start of that field value, of the error.
    public let byteOffset: Int

    /// Makes an error.
    public init(reason: Reason, fieldIndex: Int, byteOffset: Int) {
        self.reason = reason
        self.fieldIndex = fieldIndex
        self.byteOffset = byteOffset
    }

    /// The reason and the position, in words.
    public var description: String {
        "Invalid authentication challenge (field value \(fieldIndex), byte \(byteOffset)): \(explanation)"
    }

    private var explanation: String {
        switch reason {
        case .noChallenge:
            return "empty header, no challenge found"
        case .inputTooLong(let limit):
            return "input longer than \(limit) bytes"
        case .invalidCharacter(let scalar):
            return "invalid character \(Self.describe(scalar))"
        case .expectedToken(let found):
            return "expected an auth-scheme or a parameter name, found \(Self.describe(found))"
        case .missingEquals(let parameter):
            return "missing '=' after parameter '\(parameter)'"
        case .missingValue(let parameter):
            return "missing value (token or quoted string) for parameter '\(parameter)'"
        case .unterminatedQuotedString:
            return "unterminated quoted string"
        case .expectedComma(let found):
            return "expected ',' or the end of the value, found \(Self.describe(found))"
        case .duplicateParameter(let parameter):
            return "duplicate parameter '\(parameter)' in one challenge"
        case .missingScheme(let parameter):
            return "parameter '\(parameter)' comes before any auth-scheme"
        case .parameterAfterToken68(let parameter):
            return "parameter '\(parameter)' follows a challenge that has a token68"
        }
    }

    private static func describe(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        if scalar.properties.generalCategory == .control || scalar == " " {
            return code
        }
        return scalar.isASCII ? "'\(scalar)'" : "'\(scalar)' (\(code))"
    }
}
