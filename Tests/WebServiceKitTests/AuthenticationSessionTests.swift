import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``BasicAuthenticationProvider/session`` and ``DigestAuthenticationProvider/session``: whether a
/// provider answers preemptively, for which origin and paths, and ending that (ROAD's
/// `isSessionOpened` and `invalidate`).
final class AuthenticationSessionTests: XCTestCase {
    private static let root = URL(string: "https://api.example.com/")!
    private static let basicChallenge: HTTPHeaders = ["WWW-Authenticate": #"Basic realm="staff""#]
    private static let digestChallenge = #"Digest realm="r", nonce="n1", qop="auth", algorithm=SHA-256"#

    private func url(_ text: String) -> URL { URL(string: text)! }

    private func authorization(_ request: StubTransport.RecordedRequest) -> String? {
        request.request.value(forHTTPHeaderField: "Authorization")
    }

    /// A server that challenges every request without credentials and accepts every one with.
    private func challengingStubs(_ challenge: HTTPHeaders) -> StubTransport {
        let stubs = StubTransport()
        stubs.stub(
            where: { $0.value(forHTTPHeaderField: "Authorization") == nil }, with: .status(401, headers: challenge))
        stubs.stub(where: { $0.value(forHTTPHeaderField: "Authorization") != nil }, with: .text("ok"))
        return stubs
    }

    /// Docs/Authentication.md, "Is a session open?".
    func testTheGuideExample() async throws {
        let stubs = challengingStubs([
            "WWW-Authenticate": #"Digest realm="api", nonce="n", qop="auth", algorithm=SHA-256"#
        ])
        let client = WebServiceClient(serviceRoot: Self.root, transport: stubs)
        let profile = WebServiceCall<String>(relativePath: "me")

        let provider = DigestAuthenticationProvider(user: "user", password: "passwd")
        client.authenticationProvider = provider
        XCTAssertFalse(provider.isSessionOpen)
        _ = try await client.perform(profile)
        XCTAssertTrue(provider.isSessionOpen)
        let session = try XCTUnwrap(provider.session)
        XCTAssertEqual(session.origin, URL(string: "https://api.example.com")!)
        XCTAssertEqual(session.realm, "api")
        XCTAssertEqual(session.paths, ["/"])
        XCTAssertEqual(session.algorithm, .sha256)
        XCTAssertTrue(session.covers(URL(string: "https://api.example.com/users/7")!))
        provider.endSession()
        XCTAssertFalse(provider.isSessionOpen)
    }

    /// Docs/MigratingFromROAD.md, "Cache housekeeping and authentication sessions".
    func testTheMigrationGuideExample() async throws {
        let stubs = challengingStubs(Self.basicChallenge)
        let client = WebServiceClient(serviceRoot: Self.root, transport: stubs)
        client.cache = HTTPCache()
        client.cache?.removeAll()

        let provider = BasicAuthenticationProvider(user: "user", password: "passwd")
        client.authenticationProvider = provider
        _ = try await client.perform(WebServiceCall<String>(relativePath: "account"))
        XCTAssertTrue(provider.isSessionOpen)
        XCTAssertEqual(provider.session?.realm, "staff")
        provider.endSession()
        XCTAssertFalse(provider.isSessionOpen)
    }

    // MARK: Basic

    func testBasicSessionOpensWithTheFirstChallengeAndEnds() async throws {
        let stubs = challengingStubs(Self.basicChallenge)
        let client = WebServiceClient(serviceRoot: Self.root, transport: stubs)
        let provider = BasicAuthenticationProvider(user: "user", password: "pass")
        client.authenticationProvider = provider
        XCTAssertFalse(provider.isSessionOpen)
        XCTAssertNil(provider.session)

        _ = try await client.perform(WebServiceCall<String>(relativePath: "private/data"))
        XCTAssertTrue(provider.isSessionOpen)
        let session = try XCTUnwrap(provider.session)
        XCTAssertEqual(
            session,
            AuthenticationSession(origin: url("https://api.example.com"), realm: "staff", paths: ["/private/"]))
        XCTAssertTrue(session.covers(url("https://api.example.com/private/other?q=1")))
        XCTAssertTrue(session.covers(url("https://API.example.com:443/private/x")), "same origin, other spelling")
        XCTAssertFalse(session.covers(url("https://api.example.com/public")))
        XCTAssertFalse(session.covers(url("http://api.example.com/private/data")), "another scheme is another origin")
        XCTAssertFalse(session.covers(url("https://api.example.com:8443/private/data")))

        // While open, a call costs one request.
        _ = try await client.perform(WebServiceCall<String>(relativePath: "private/data"))
        XCTAssertEqual(stubs.requests.count, 3)
        XCTAssertNotNil(authorization(stubs.requests[2]))

        provider.endSession()
        XCTAssertFalse(provider.isSessionOpen)
        XCTAssertNil(provider.session)
        _ = try await client.perform(WebServiceCall<String>(relativePath: "private/data"))
        XCTAssertEqual(stubs.requests.count, 5, "after the end the request goes out bare and is challenged again")
        XCTAssertNil(authorization(stubs.requests[3]))
        XCTAssertTrue(provider.isSessionOpen)

        await provider.invalidate()
        XCTAssertFalse(provider.isSessionOpen, "invalidate() ends the session too")
    }

    func testBasicSessionCollectsEveryChallengedPathOfItsOrigin() async throws {
        let stubs = challengingStubs(Self.basicChallenge)
        let client = WebServiceClient(serviceRoot: url("http://127.0.0.1:8080/api/"), transport: stubs)
        let provider = BasicAuthenticationProvider(user: "user", password: "pass")
        client.authenticationProvider = provider
        _ = try await client.perform(WebServiceCall<String>(relativePath: "b/one"))
        _ = try await client.perform(WebServiceCall<String>(relativePath: "a/two"))
        XCTAssertEqual(
            provider.session,
            AuthenticationSession(origin: url("http://127.0.0.1:8080"), realm: "staff", paths: ["/api/a/", "/api/b/"]))
    }

    func testRefusedBasicCredentialsEndTheSession() async throws {
        let stubs = challengingStubs(Self.basicChallenge)
        let client = WebServiceClient(serviceRoot: Self.root, transport: stubs)
        let provider = BasicAuthenticationProvider(user: "user", password: "pass")
        client.authenticationProvider = provider
        _ = try await client.perform(WebServiceCall<String>(relativePath: "private/data"))
        XCTAssertTrue(provider.isSessionOpen)
        // The password changes on the server: the preemptive credentials are refused.
        stubs.stub(where: { _ in true }, with: .status(401, headers: Self.basicChallenge))
        do {
            _ = try await client.perform(WebServiceCall<String>(relativePath: "private/data"))
            XCTFail("must fail")
        } catch {
            guard case .authentication = error.reason else { return XCTFail("\(error)") }
        }
        XCTAssertFalse(provider.isSessionOpen)
    }

    func testPreemptiveBasicIsOpenOnceItKnowsItsOriginAndStaysOpen() async throws {
        let given = BasicAuthenticationProvider(
            user: "user", password: "pass", origin: url("https://api.example.com/v1/"), sendsPreemptively: true)
        XCTAssertEqual(
            given.session, AuthenticationSession(origin: url("https://api.example.com"), realm: nil, paths: ["/"]))
        given.endSession()
        XCTAssertTrue(given.isSessionOpen, "a preemptive provider goes on sending to its origin")

        let stubs = StubTransport(fallback: .text("ok"))
        let client = WebServiceClient(serviceRoot: Self.root, transport: stubs)
        let learning = BasicAuthenticationProvider(user: "user", password: "pass", sendsPreemptively: true)
        client.authenticationProvider = learning
        XCTAssertFalse(learning.isSessionOpen, "no origin yet")
        _ = try await client.perform(WebServiceCall<String>(relativePath: "x"))
        XCTAssertEqual(learning.session?.origin, url("https://api.example.com"))
        XCTAssertNotNil(authorization(stubs.requests[0]))
    }

    // MARK: Digest

    func testDigestSessionHoldsTheNonceUntilItEnds() async throws {
        let stubs = challengingStubs(["WWW-Authenticate": Self.digestChallenge])
        let client = WebServiceClient(serviceRoot: Self.root, transport: stubs)
        let provider = DigestAuthenticationProvider(user: "u", password: "p")
        client.authenticationProvider = provider
        XCTAssertFalse(provider.isSessionOpen)

        _ = try await client.perform(WebServiceCall<String>(relativePath: "d"))
        XCTAssertEqual(
            provider.session,
            AuthenticationSession(
                origin: url("https://api.example.com"), realm: "r", paths: ["/"], algorithm: .sha256))
        _ = try await client.perform(WebServiceCall<String>(relativePath: "e"))
        XCTAssertEqual(stubs.requests.count, 3, "signed preemptively while open")

        provider.endSession()
        XCTAssertNil(provider.session)
        _ = try await client.perform(WebServiceCall<String>(relativePath: "d"))
        XCTAssertEqual(stubs.requests.count, 5)
        XCTAssertNil(authorization(stubs.requests[3]), "no nonce: the request goes out bare")
        XCTAssertTrue(try XCTUnwrap(authorization(stubs.requests[4])).contains("nc=00000001"), "a new count")
        XCTAssertTrue(provider.isSessionOpen)
    }

    func testDigestSessionPathsComeFromTheDomainOnItsOrigin() async throws {
        let challenge =
            #"Digest realm="r", nonce="n1", qop="auth", domain="/a/ b http://other.example/c /a/", algorithm=MD5"#
        let stubs = challengingStubs(["WWW-Authenticate": challenge])
        let client = WebServiceClient(serviceRoot: Self.root, transport: stubs)
        let provider = DigestAuthenticationProvider(user: "u", password: "p")
        client.authenticationProvider = provider
        _ = try await client.perform(WebServiceCall<String>(relativePath: "a/x"))
        let session = try XCTUnwrap(provider.session)
        XCTAssertEqual(session.paths, ["/a", "/b"], "as the provider compares them: URL.path, no final slash")
        XCTAssertEqual(session.algorithm, .md5)
        XCTAssertTrue(session.covers(url("https://api.example.com/a/y")))
        XCTAssertFalse(session.covers(url("https://api.example.com/c")))
    }

    func testRefusedDigestCredentialsEndTheSession() async throws {
        let stubs = challengingStubs(["WWW-Authenticate": Self.digestChallenge])
        let client = WebServiceClient(serviceRoot: Self.root, transport: stubs)
        let provider = DigestAuthenticationProvider(user: "u", password: "p")
        client.authenticationProvider = provider
        _ = try await client.perform(WebServiceCall<String>(relativePath: "d"))
        XCTAssertTrue(provider.isSessionOpen)
        stubs.stub(where: { _ in true }, with: .status(401, headers: ["WWW-Authenticate": Self.digestChallenge]))
        _ = try? await client.perform(WebServiceCall<String>(relativePath: "d"))
        XCTAssertFalse(provider.isSessionOpen)
    }
}
