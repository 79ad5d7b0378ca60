import Foundation

/// Computes a Digest `Authorization` value (RFC 7616 §3.4; RFC 2617/2069 without `qop`).
struct DigestAnswer {
    let challenge: DigestChallenge
    let user: String
    let password: String

    /// The `Authorization` header value for one request.
    ///
    /// - Parameters:
    ///   - method: The request method.
    ///   - uri: The request-target as sent (§3.4.6: path and query, percent-encoded).
    ///   - body: The body, hashed for `qop=auth-int`.
    ///   - nonceCount: How many requests this nonce has signed, this one included (§3.4: `nc`).
    ///   - cnonce: The client nonce.
    func authorization(method: String, uri: String, body: Data?, nonceCount: Int, cnonce: String) throws(DigestChallenge
        .Problem)
        -> String
    {
        let algorithm = challenge.algorithm
        let qop = try challenge.chosenQOP()
        let nc = Self.nonceCountText(nonceCount)
        // §3.4.2: A1 = username:realm:password, and for -sess H(that):nonce:cnonce.
        var ha1 = algorithm.hexDigest("\(user):\(challenge.realm):\(password)")
        if algorithm.isSession { ha1 = algorithm.hexDigest("\(ha1):\(challenge.nonce):\(cnonce)") }
        // §3.4.3: A2 = method:uri, and for auth-int also H(entity-body).
        let ha2 =
            qop == "auth-int"
            ? algorithm.hexDigest("\(method):\(uri):\(algorithm.hexDigest(body ?? Data()))")
            : algorithm.hexDigest("\(method):\(uri)")
        let response =
            if let qop {
                algorithm.hexDigest("\(ha1):\(challenge.nonce):\(nc):\(cnonce):\(qop):\(ha2)")
            } else {
                // RFC 2069 compatibility (RFC 2617 §3.2.2.1): no qop, no nc, no cnonce.
                algorithm.hexDigest("\(ha1):\(challenge.nonce):\(ha2)")
            }
        var parameters: [String] = []
        if challenge.userhash {
            // §3.4.4: username = H(username:realm).
            parameters.append("username=\(Self.quoted(algorithm.hexDigest("\(user):\(challenge.realm)")))")
        } else if user.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) || !challenge.acceptsUTF8 {
            parameters.append("username=\(Self.quoted(user))")
        } else {
            // §3.4.4 and RFC 8187: a non-ASCII username travels as username*=UTF-8''%XX….
            parameters.append("username*=UTF-8''\(URLEncoding.percentEncode(user, allowed: Self.attrChar))")
        }
        parameters.append("realm=\(Self.quoted(challenge.realm))")
        parameters.append("uri=\(Self.quoted(uri))")
        parameters.append("algorithm=\(algorithm.token)")
        parameters.append("nonce=\(Self.quoted(challenge.nonce))")
        if let qop {
            parameters.append("nc=\(nc)")
            parameters.append("cnonce=\(Self.quoted(cnonce))")
            parameters.append("qop=\(qop)")
        }
        parameters.append("response=\(Self.quoted(response))")
        if let opaque = challenge.opaque { parameters.append("opaque=\(Self.quoted(opaque))") }
        if challenge.userhash { parameters.append("userhash=true") }
        return "Digest " + parameters.joined(separator: ", ")
    }

    /// `nc` is exactly 8 hex digits (§3.4).
    static func nonceCountText(_ count: Int) -> String {
        let hex = String(count & 0xFFFF_FFFF, radix: 16)
        return String(repeating: "0", count: max(0, 8 - hex.count)) + hex
    }

    /// A fresh client nonce: 128 random bits, hex.
    static func makeClientNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// RFC 9110 §5.6.4 quoted-string: `"` and `\` are escaped.
    ///
    /// They are found by Unicode scalar: `replacingOccurrences(of:with:)` compares `Character`s
    /// and missed a `"` or `\` that a combining mark follows, so a server's realm or nonce could
    /// end the quoted string early.
    static func quoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { quoted.unicodeScalars.append("\\") }
            quoted.unicodeScalars.append(scalar)
        }
        quoted.unicodeScalars.append("\"")
        return quoted
    }

    /// RFC 8187 §3.2.1 `attr-char`.
    private static let attrChar = URLEncoding.ByteSet(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$&+-.^_`|~")
}
