import Foundation

/// `WWW-Authenticate` challenges (RFC 9110 §11.6.1) and the Digest answers (RFC 7616) built from
/// them.
///
/// Input: field values separated by 0xFF.
///
/// Beyond not crashing:
/// - an error points inside the input (its field index and byte offset exist);
/// - every parsed challenge has a token for a scheme, lowercased token parameter names, and
///   either parameters or a token68, never both; writing the challenges back (parameters as
///   quoted strings) and parsing them again gives the same challenges;
/// - the strongest usable Digest challenge answers with an `Authorization` value that is a valid
///   field value (no CR, LF, NUL) and reads back, with the same parser, to the challenge's
///   realm, nonce and opaque.
enum ChallengeTarget {
    static func run(_ bytes: [UInt8]) {
        let values = fuzzFields(bytes)
        let challenges: [AuthenticationChallenge]
        do {
            challenges = try AuthenticationChallenge.parse(values)
        } catch {
            fuzzCheck(
                values.indices.contains(error.fieldIndex), "error in field \(error.fieldIndex) of \(values.count)")
            fuzzCheck(
                (0...values[error.fieldIndex].utf8.count).contains(error.byteOffset)
                    || error.reason == .inputTooLong(limit: AuthenticationChallenge.maximumInputLength),
                "error offset \(error.byteOffset) outside \(values[error.fieldIndex].debugDescription)")
            _ = error.description
            return
        }
        fuzzCheck(!challenges.isEmpty, "no challenge and no error")
        for challenge in challenges {
            fuzzCheck(isToken(challenge.scheme), "scheme \(challenge.scheme.debugDescription) is not a token")
            fuzzCheck(challenge.token68 == nil || challenge.parameters.isEmpty, "token68 and parameters")
            for name in challenge.parameters.keys {
                fuzzCheck(isToken(name) && name == name.lowercased(), "parameter name \(name.debugDescription)")
            }
        }
        let written = challenges.map(write).joined(separator: ", ")
        let again: [AuthenticationChallenge]?
        do { again = try AuthenticationChallenge.parse(written) } catch { again = nil }
        fuzzCheck(again == challenges, "challenges do not read back from \(written.debugDescription)")
        checkDigest(challenges)
    }

    static func isToken(_ text: String) -> Bool { HTTPToken.isValidFieldName(text) }

    /// A challenge as a field value: the scheme, then its token68 or its parameters, quoted.
    static func write(_ challenge: AuthenticationChallenge) -> String {
        if let token68 = challenge.token68 { return challenge.scheme + " " + token68 }
        if challenge.parameters.isEmpty { return challenge.scheme }
        return challenge.scheme + " "
            + challenge.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\(DigestAnswer.quoted($0.value))" }
            .joined(separator: ", ")
    }

    private static func checkDigest(_ challenges: [AuthenticationChallenge]) {
        let digest: DigestChallenge?
        do { digest = try DigestChallenge.strongest(in: challenges) } catch { return }
        guard let digest else { return }
        let answer = DigestAnswer(challenge: digest, user: "Mufasa", password: "Circle of Life")
        let value: String
        do {
            value = try answer.authorization(
                method: "GET", uri: "/dir/index.html", body: Data("body".utf8), nonceCount: 1,
                cnonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ")
        } catch {
            return
        }
        fuzzCheck(
            HeaderValidation.problem(in: value) == nil, "Authorization \(value.debugDescription) is not a field value")
        let credentials: AuthenticationChallenge?
        do { credentials = try AuthenticationChallenge.parse(value).first } catch { credentials = nil }
        guard let credentials else { return fuzzCheck(false, "Authorization \(value.debugDescription) does not parse") }
        fuzzCheck(credentials[parameter: "realm"] == digest.realm, "realm lost in \(value.debugDescription)")
        fuzzCheck(credentials[parameter: "nonce"] == digest.nonce, "nonce lost in \(value.debugDescription)")
        fuzzCheck(credentials[parameter: "opaque"] == digest.opaque, "opaque lost in \(value.debugDescription)")
    }
}
