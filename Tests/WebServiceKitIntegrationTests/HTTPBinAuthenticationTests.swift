import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Basic and Digest against the local httpbin, counting round trips on the wire.
final class HTTPBinAuthenticationTests: XCTestCase {
    private struct Authenticated: Decodable, Sendable { let authenticated: Bool; let user: String }

    private func client(_ provider: any AuthenticationProvider) throws -> (WebServiceClient, CountingTransport) {
        let transport = CountingTransport()
        let client = WebServiceClient(serviceRoot: try HTTPBin.url(), transport: transport)
        client.authenticationProvider = provider
        return (client, transport)
    }

    private static let authenticated = WebServiceCall<Authenticated>(relativePath: "%%0%%")

    func testBasicChallengeThenPreemptive() async throws {
        let (client, wire) = try client(BasicAuthenticationProvider(user: "user", password: "passwd"))
        let first = try await client.perform(Self.authenticated, PreEncodedPath("basic-auth/user/passwd"))
        XCTAssertTrue(first.authenticated)
        XCTAssertEqual(wire.requests, 2)
        for _ in 0..<3 { _ = try await client.perform(Self.authenticated, PreEncodedPath("basic-auth/user/passwd")) }
        XCTAssertEqual(wire.requests, 5, "one round trip per call after the challenge")
        XCTAssertEqual(wire.challenges, 1)
    }

    /// ROAD's `isSessionOpened`: closed before the first challenge, open after it (realm and
    /// path as httpbin sent them), closed again by `endSession()`, after which httpbin challenges anew.
    func testSessionOpensOnTheChallengeAndEnds() async throws {
        let basic = BasicAuthenticationProvider(user: "user", password: "passwd")
        let digest = DigestAuthenticationProvider(user: "user", password: "passwd")
        let cases: [(any AuthenticationProvider, String, () -> AuthenticationSession?, () -> Void)] = [
            (basic, "basic-auth/user/passwd", { basic.session }, basic.endSession),
            (digest, "digest-auth/auth/user/passwd/SHA-256", { digest.session }, digest.endSession),
        ]
        for (provider, path, session, endSession) in cases {
            let (client, wire) = try client(provider)
            XCTAssertNil(session(), path)
            _ = try await client.perform(Self.authenticated, PreEncodedPath(path))
            let open = try XCTUnwrap(session(), path)
            XCTAssertEqual(open.origin.absoluteString, try HTTPBin.url().absoluteString.trimmingSuffix("/"), path)
            XCTAssertEqual(open.realm, path.hasPrefix("basic") ? "Fake Realm" : "me@kennethreitz.com", path)
            XCTAssertTrue(open.covers(try HTTPBin.url().appendingPathComponent(path)), path)
            endSession()
            XCTAssertNil(session(), path)
            _ = try await client.perform(Self.authenticated, PreEncodedPath(path))
            XCTAssertEqual(wire.challenges, 2, "after the end, httpbin challenges again: \(path)")
        }
    }

    func testHiddenBasicNeedsPreemptiveCredentials() async throws {
        let (lazy, _) = try client(BasicAuthenticationProvider(user: "user", password: "passwd"))
        do {
            _ = try await lazy.perform(Self.authenticated, PreEncodedPath("hidden-basic-auth/user/passwd"))
            XCTFail("httpbin answers 404 to requests without credentials")
        } catch {
            XCTAssertEqual(error.statusCode, 404)
        }
        let (eager, wire) = try client(
            BasicAuthenticationProvider(user: "user", password: "passwd", sendsPreemptively: true))
        let result = try await eager.perform(Self.authenticated, PreEncodedPath("hidden-basic-auth/user/passwd"))
        XCTAssertEqual(result.user, "user")
        XCTAssertEqual(wire.requests, 1)
    }

    func testBasicWrongPassword() async throws {
        let (client, wire) = try client(BasicAuthenticationProvider(user: "user", password: "nope"))
        do {
            _ = try await client.perform(Self.authenticated, PreEncodedPath("basic-auth/user/passwd"))
            XCTFail("must fail")
        } catch {
            guard case .authentication = error.reason else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(wire.requests, 2)
    }

    func testDigestEveryQOPAndAlgorithmHttpbinOffers() async throws {
        for qop in ["auth", "auth-int"] {
            for algorithm in ["MD5", "SHA-256", "SHA-512"] {
                let (client, wire) = try client(DigestAuthenticationProvider(user: "user", password: "passwd"))
                let path = PreEncodedPath("digest-auth/\(qop)/user/passwd/\(algorithm)")
                let result = try await client.perform(Self.authenticated, path)
                XCTAssertTrue(result.authenticated, "\(qop) \(algorithm)")
                _ = try await client.perform(Self.authenticated, path)
                XCTAssertEqual(wire.requests, 3, "\(qop) \(algorithm): challenge, answer, then one round trip")
            }
        }
    }

    func testDigestWrongPassword() async throws {
        let (client, wire) = try client(DigestAuthenticationProvider(user: "user", password: "wrong"))
        do {
            _ = try await client.perform(Self.authenticated, PreEncodedPath("digest-auth/auth/user/passwd/SHA-256"))
            XCTFail("must fail")
        } catch {
            guard case .authentication(let reason) = error.reason else { return XCTFail("\(error)") }
            XCTAssertFalse(reason.contains("wrong"), "no secret in errors")
        }
        XCTAssertEqual(wire.requests, 2)
    }

    /// httpbin's stale mode: after `stale_after` uses of a nonce it answers `stale=true` with a new one.
    func testDigestStaleNonceIsRenewedWithABoundedCost() async throws {
        let (client, wire) = try client(DigestAuthenticationProvider(user: "user", password: "passwd"))
        let path = PreEncodedPath("digest-auth/auth/user/passwd/MD5/2")
        for _ in 0..<8 {
            let result = try await client.perform(Self.authenticated, path)
            XCTAssertTrue(result.authenticated)
        }
        XCTAssertGreaterThan(wire.challenges, 1, "httpbin did declare nonces stale")
        XCTAssertLessThanOrEqual(wire.requests, 8 + wire.challenges, "each stale nonce costs one extra round trip")
    }

    func testBurstOfConcurrentCallsAuthenticatesOnce() async throws {
        let (client, wire) = try client(DigestAuthenticationProvider(user: "user", password: "passwd"))
        let path = PreEncodedPath("digest-auth/auth/user/passwd/SHA-256")
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<20 { group.addTask { try await client.perform(Self.authenticated, path).authenticated } }
            for try await ok in group { XCTAssertTrue(ok) }
        }
        XCTAssertEqual(wire.challenges, 1, "one challenge for 20 concurrent calls")
        XCTAssertEqual(wire.requests, 21)
    }

    func testCredentialsDoNotFollowAProviderAcrossOrigins() async throws {
        let other = try HTTPBin.otherURL()
        let (client, _) = try client(
            BasicAuthenticationProvider(user: "user", password: "passwd", sendsPreemptively: true))
        _ = try await client.perform(Self.authenticated, PreEncodedPath("basic-auth/user/passwd"))
        let echo = try await client.perform(
            WebServiceCall<Echo>(relativePath: "redirect-to?url=%%0%%"),
            other.appendingPathComponent("anything").absoluteString)
        XCTAssertNil(echo.headers["Authorization"])
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
