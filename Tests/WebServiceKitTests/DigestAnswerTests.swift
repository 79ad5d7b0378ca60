import Foundation
import XCTest

@testable import WebServiceKit

/// Digest responses against the RFCs' examples, and against values computed with Python's
/// hashlib (an independent implementation) where the RFCs give none:
/// `hashlib.new(name, f"{ha1}:{nonce}:{nc}:{cnonce}:{qop}:{ha2}".encode()).hexdigest()`.
final class DigestAnswerTests: XCTestCase {
    private static let nonce = "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v"
    private static let cnonce = "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ"
    private static let opaque = "FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"

    private func challenge(_ text: String) throws -> DigestChallenge {
        let parsed = try AuthenticationChallenge.parse([text])
        return try XCTUnwrap(try DigestChallenge.strongest(in: parsed))
    }

    private func rfc7616Challenge(algorithm: String, qop: String = "auth") throws -> DigestChallenge {
        try challenge(
            #"Digest realm="http-auth@example.org", qop="\#(qop)", algorithm=\#(algorithm), nonce="\#(Self.nonce)", opaque="\#(Self.opaque)""#
        )
    }

    private func response(in header: String) -> String? {
        guard let range = header.range(of: #"response=""#) else { return nil }
        return String(header[range.upperBound...].prefix { $0 != "\"" })
    }

    private func answer(
        _ challenge: DigestChallenge, user: String = "Mufasa", password: String = "Circle of Life",
        method: String = "GET", uri: String = "/dir/index.html", body: Data? = nil, nc: Int = 1,
        cnonce: String = cnonce
    ) throws -> String {
        try DigestAnswer(challenge: challenge, user: user, password: password).authorization(
            method: method, uri: uri, body: body, nonceCount: nc, cnonce: cnonce)
    }

    /// RFC 7616 §3.9.1, password "Circle of Life" (erratum 4495).
    func testRFC7616MD5Example() throws {
        let header = try answer(try rfc7616Challenge(algorithm: "MD5"))
        XCTAssertEqual(response(in: header), "8ca523f5e9506fed4657c9700eebdbec")
        XCTAssertEqual(
            header,
            #"Digest username="Mufasa", realm="http-auth@example.org", uri="/dir/index.html", algorithm=MD5, nonce="\#(Self.nonce)", nc=00000001, cnonce="\#(Self.cnonce)", qop=auth, response="8ca523f5e9506fed4657c9700eebdbec", opaque="\#(Self.opaque)""#
        )
    }

    /// RFC 7616 §3.9.1 with SHA-256.
    func testRFC7616SHA256Example() throws {
        let header = try answer(try rfc7616Challenge(algorithm: "SHA-256"))
        XCTAssertEqual(response(in: header), "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1")
    }

    /// RFC 7616 §3.9.2 (SHA-512-256, charset, userhash) with the values corrected by erratum 4897,
    /// as hashlib computes them.
    func testRFC7616UserhashExample() throws {
        let challenge = try challenge(
            #"Digest realm="api@example.org", qop="auth", algorithm=SHA-512-256, nonce="5TsQWLVdgBdmrQ0XsxbDODV+57QdFR34I9HAbC/RVvkK", opaque="HRPCssKJSGjCrkzDg8OhwpzCiGPChXYjwrI2QmXDnsOS", charset=UTF-8, userhash=true"#
        )
        let header = try answer(
            challenge, user: "J\u{e4}s\u{f8}n Doe", password: "Secret, or not?", uri: "/doe.json",
            cnonce: "NTg6RKcb9boFIAS3KrFK9BGeh+iDa/sm6jUMp2wds69v")
        XCTAssertTrue(
            header.hasPrefix(#"Digest username="793263caabb707a56211940d90411ea4a575adeccb7e360aeb624ed06ece9b0b""#),
            header)
        XCTAssertEqual(response(in: header), "3798d4131c277846293534c3edc11bd8a5e4cdcbff78b05db9d95eeb1cec68a5")
        XCTAssertTrue(header.hasSuffix("userhash=true"), header)
    }

    /// RFC 2617 §3.5, password "Circle Of Life".
    func testRFC2617Example() throws {
        let challenge = try challenge(
            #"Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41""#
        )
        let header = try answer(challenge, password: "Circle Of Life", cnonce: "0a4f113b")
        XCTAssertEqual(response(in: header), "6629fae49393a05397450978507c4ef1")
    }

    func testSessionVariantsAgainstHashlib() throws {
        let expected = [
            "MD5-sess": "e783283f46242139c486a698fec7211d",
            "SHA-256-sess": "2fd51b3a77ad75bad6afad6003e818d767133c46d9e2749e7f5232ae1ea3efd7",
            "SHA-512-256-sess": "3f2a34f923c38b0fb26dce2fdfc2ce326c23cecf86fbb1444f3e51fbbc2cb92e",
        ]
        for (algorithm, value) in expected {
            let header = try answer(try rfc7616Challenge(algorithm: algorithm))
            XCTAssertEqual(response(in: header), value, algorithm)
            XCTAssertTrue(header.contains("algorithm=\(algorithm),"), header)
        }
    }

    func testAuthIntHashesTheBody() throws {
        let header = try answer(
            try rfc7616Challenge(algorithm: "SHA-256", qop: "auth-int"), method: "POST", body: Data(#"{"a":1}"#.utf8),
            nc: 2)
        XCTAssertEqual(response(in: header), "80cc0fe81f1fb7e21de78754ca9b815d5e75ed91d48ed8f039be9da01f18a66a")
        XCTAssertTrue(header.contains("qop=auth-int"))
        XCTAssertTrue(header.contains("nc=00000002"))
    }

    func testLegacyChallengeWithoutQOP() throws {
        let challenge = try challenge(#"Digest realm="testrealm@host.com", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093""#)
        let header = try answer(challenge, password: "Circle Of Life")
        XCTAssertEqual(response(in: header), "670fd8c2df070c60b045671b8b24ff02")
        XCTAssertFalse(header.contains("nc="))
        XCTAssertFalse(header.contains("cnonce="))
        XCTAssertFalse(header.contains("qop="))
    }

    func testPlainSHA512AsHttpbinOffersIt() throws {
        let challenge = try challenge(
            #"Digest realm="me@kennethreitz.com", nonce="abc", qop="auth", algorithm=SHA-512"#)
        let header = try answer(
            challenge, user: "user", password: "passwd", uri: "/digest-auth/auth/user/passwd/SHA-512", cnonce: "xyz")
        XCTAssertEqual(
            response(in: header),
            "eaedc60efe3545ad12be71378632a05408d4938a8d591a895d3987a3d69075e9220b04f7e034518059f06ab6fba2c3514d7b261206177dc67301d1b1f672c93a"
        )
    }

    func testNonceCountIsEightHexDigits() {
        XCTAssertEqual(DigestAnswer.nonceCountText(1), "00000001")
        XCTAssertEqual(DigestAnswer.nonceCountText(10), "0000000a")
        XCTAssertEqual(DigestAnswer.nonceCountText(0xFFFF_FFFF), "ffffffff")
        let cnonce = DigestAnswer.makeClientNonce()
        XCTAssertEqual(cnonce.count, 32)
        XCTAssertNotEqual(cnonce, DigestAnswer.makeClientNonce())
    }

    func testAlgorithmTokens() {
        XCTAssertEqual(DigestAlgorithm(token: "md5"), .md5)
        XCTAssertEqual(DigestAlgorithm(token: "sha-256-SESS"), .sha256Session)
        XCTAssertEqual(DigestAlgorithm(token: "SHA-512-256"), .sha512Slash256)
        XCTAssertEqual(DigestAlgorithm(token: "SHA-512"), .sha512)
        XCTAssertNil(DigestAlgorithm(token: "SHA-512-sess"))
        XCTAssertNil(DigestAlgorithm(token: "SHA-1"))
        XCTAssertNil(DigestAlgorithm(token: ""))
    }

    func testStrongestUsableChallengeWins() throws {
        let offered = try AuthenticationChallenge.parse([
            #"Digest realm="r", nonce="n1", algorithm=MD5, qop="auth""#,
            #"Digest realm="r", nonce="n2", algorithm=SHA-512-256, qop="auth""#,
            #"Digest realm="r", nonce="n3", algorithm=SHA-256, qop="auth""#,
            #"Basic realm="r""#,
        ])
        XCTAssertEqual(try DigestChallenge.strongest(in: offered)?.algorithm, .sha512Slash256)
        let withUnknown = try AuthenticationChallenge.parse([
            #"Digest realm="r", nonce="n1", algorithm=SHA3-256, qop="auth", Digest realm="r", nonce="n2", qop="auth""#
        ])
        XCTAssertEqual(try DigestChallenge.strongest(in: withUnknown)?.algorithm, .md5, "MD5 was offered explicitly")
        let onlyUnknown = try AuthenticationChallenge.parse([#"Digest realm="r", nonce="n", algorithm=SHA3-256"#])
        XCTAssertThrowsError(try DigestChallenge.strongest(in: onlyUnknown)) {
            XCTAssertEqual($0 as? DigestChallenge.Problem, .unsupportedAlgorithm("SHA3-256"))
        }
        XCTAssertNil(try DigestChallenge.strongest(in: try AuthenticationChallenge.parse([#"Basic realm="r""#])))
    }

    func testNonASCIIUsernameTravelsAsExtendedParameter() throws {
        let challenge = try challenge(#"Digest realm="r", nonce="n", qop="auth", charset=UTF-8"#)
        let header = try answer(challenge, user: "Jäsøn \"Doe\"")
        XCTAssertTrue(header.hasPrefix("Digest username*=UTF-8''J%C3%A4s%C3%B8n%20%22Doe%22, "), header)
        let ascii = try answer(challenge, user: #"a"b\c"#)
        XCTAssertTrue(ascii.hasPrefix(#"Digest username="a\"b\\c", "#), ascii)
    }

    func testRequestTargetKeepsPathAndQueryAsSent() {
        XCTAssertEqual(
            DigestAuthenticationProvider.requestTarget(of: URL(string: "http://h/a%20b/c?x=1&y=%2B")!),
            "/a%20b/c?x=1&y=%2B")
        XCTAssertEqual(DigestAuthenticationProvider.requestTarget(of: URL(string: "http://h")!), "/")
    }
}
