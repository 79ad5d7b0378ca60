import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Provider behaviour through the stub transport: what is sent, how often, and when it stops.
final class AuthenticationProviderTests: XCTestCase {
    private static let digestChallenge = #"Digest realm="r", nonce="n1", qop="auth", algorithm=SHA-256, opaque="o""#

    private func client(_ stubs: StubTransport, root: String = "https://api.example.com/") -> WebServiceClient {
        WebServiceClient(serviceRoot: URL(string: root)!, transport: stubs)
    }

    private func authorization(_ request: StubTransport.RecordedRequest) -> String? {
        request.request.value(forHTTPHeaderField: "Authorization")
    }

    // MARK: Basic

    func testBasicAnswersTheChallengeThenSendsPreemptively() async throws {
        let stubs = StubTransport()
        stubs.stub(
            where: { $0.value(forHTTPHeaderField: "Authorization") == nil },
            with: .status(401, headers: ["WWW-Authenticate": #"Basic realm="x""#]))
        stubs.stub(
            where: { $0.value(forHTTPHeaderField: "Authorization") == "Basic dXNlcjpww6Rzcw==" }, with: .text("ok"))
        let client = client(stubs)
        client.authenticationProvider = BasicAuthenticationProvider(user: "user", password: "päss")
        let call = WebServiceCall<String>(relativePath: "private/data")
        let first = try await client.perform(call)
        XCTAssertEqual(first, "ok")
        XCTAssertEqual(stubs.requests.count, 2)
        _ = try await client.perform(call)
        _ = try await client.perform(WebServiceCall<String>(relativePath: "private/other"))
        XCTAssertEqual(stubs.requests.count, 4, "one round trip per call after the first challenge")
        _ = try? await client.perform(WebServiceCall<String>(relativePath: "public"))
        XCTAssertNil(authorization(stubs.requests[4]), "outside the protection space nothing is sent preemptively")
    }

    func testBasicRefusedCredentialsFailWithoutLooping() async {
        let stubs = StubTransport(fallback: .status(401, headers: ["WWW-Authenticate": #"Basic realm="x""#]))
        let client = client(stubs)
        client.authenticationProvider = BasicAuthenticationProvider(user: "user", password: "wrong")
        do {
            _ = try await client.perform(WebServiceCall<Data>(relativePath: "a"))
            XCTFail("must fail")
        } catch {
            guard case .authentication(let reason) = error.reason else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("refused"), reason)
            XCTAssertFalse(reason.contains("wrong"), "the password never appears in errors")
        }
        XCTAssertEqual(stubs.requests.count, 2)
    }

    func testBasicRefusesPlainHTTPToAnotherMachine() async {
        let stubs = StubTransport(fallback: .status(200))
        let client = client(stubs, root: "http://api.example.com/")
        client.authenticationProvider = BasicAuthenticationProvider(user: "u", password: "p", sendsPreemptively: true)
        do {
            _ = try await client.perform(WebServiceCall<Data>(relativePath: "a"))
            XCTFail("must refuse")
        } catch {
            guard case .authentication(let reason) = error.reason else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("plain http"), reason)
        }
        XCTAssertTrue(stubs.requests.isEmpty)
        client.authenticationProvider = BasicAuthenticationProvider(
            user: "u", password: "p", sendsPreemptively: true, allowsInsecureHTTP: true)
        _ = try? await client.perform(WebServiceCall<Data>(relativePath: "a"))
        XCTAssertEqual(stubs.requests.first.flatMap(authorization), "Basic dTpw")
    }

    func testBasicOverLoopbackHTTPIsAllowed() async throws {
        for root in ["http://127.0.0.1:8080/", "http://localhost/", "http://[::1]:9/"] {
            let stubs = StubTransport(fallback: .status(200))
            let client = client(stubs, root: root)
            client.authenticationProvider = BasicAuthenticationProvider(
                user: "u", password: "p", sendsPreemptively: true)
            _ = try await client.perform(WebServiceCall<Data>(relativePath: "a"))
            XCTAssertEqual(stubs.requests.first.flatMap(authorization), "Basic dTpw", root)
        }
    }

    func testCredentialsAreBoundToTheirOrigin() async throws {
        let stubs = StubTransport(fallback: .status(200))
        let client = client(stubs)
        client.authenticationProvider = BasicAuthenticationProvider(
            user: "u", password: "p", origin: URL(string: "https://api.example.com")!, sendsPreemptively: true)
        _ = try await client.perform(WebServiceCall<Data>(relativePath: "a"))
        _ = try await client.perform(WebServiceCall<Data>(relativePath: "https://evil.example/steal"))
        _ = try await client.perform(WebServiceCall<Data>(relativePath: "https://api.example.com:444/x"))
        XCTAssertEqual(stubs.requests.map(authorization), ["Basic dTpw", nil, nil])
    }

    func testBasicUserWithAColonIsATypedError() async {
        let stubs = StubTransport(fallback: .status(200))
        let client = client(stubs)
        client.authenticationProvider = BasicAuthenticationProvider(user: "a:b", password: "p", sendsPreemptively: true)
        do {
            _ = try await client.perform(WebServiceCall<Data>(relativePath: "a"))
            XCTFail("must fail")
        } catch {
            guard case .authentication(let reason) = error.reason else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("RFC 7617"), reason)
        }
    }

    // MARK: Digest

    private func digestStubs(accept: @escaping @Sendable (String) -> Bool = { _ in true }) -> StubTransport {
        let stubs = StubTransport()
        stubs.stub(
            where: { $0.value(forHTTPHeaderField: "Authorization") == nil },
            with: .status(401, headers: ["WWW-Authenticate": Self.digestChallenge]))
        stubs.stub(
            where: { request in (request.value(forHTTPHeaderField: "Authorization")).map(accept) ?? false },
            with: .text("secret"))
        return stubs
    }

    func testDigestCostsOneRoundTripAfterTheFirstChallenge() async throws {
        let stubs = digestStubs()
        let client = client(stubs)
        client.authenticationProvider = DigestAuthenticationProvider(user: "u", password: "p")
        for _ in 0..<4 { _ = try await client.perform(WebServiceCall<String>(relativePath: "d")) }
        XCTAssertEqual(stubs.requests.count, 5)
        let counts = stubs.requests.compactMap(authorization).compactMap { header in
            header.range(of: "nc=").map { String(header[$0.upperBound...].prefix(8)) }
        }
        XCTAssertEqual(counts, ["00000001", "00000002", "00000003", "00000004"])
        XCTAssertTrue(stubs.requests.compactMap(authorization).allSatisfy { $0.contains(#"opaque="o""#) })
    }

    func testDigestStaleNonceIsRenewedWithoutFailing() async throws {
        let stubs = StubTransport()
        let stale = #"Digest realm="r", nonce="n2", qop="auth", algorithm=SHA-256, stale=TRUE"#
        stubs.stub(
            where: { $0.value(forHTTPHeaderField: "Authorization") == nil },
            with: .status(401, headers: ["WWW-Authenticate": Self.digestChallenge]))
        stubs.stub(
            where: { $0.value(forHTTPHeaderField: "Authorization")?.contains(#"nonce="n1""#) ?? false },
            with: .status(401, headers: ["WWW-Authenticate": stale]))
        stubs.stub(
            where: { $0.value(forHTTPHeaderField: "Authorization")?.contains(#"nonce="n2""#) ?? false },
            with: .text("fresh"))
        let client = client(stubs)
        client.authenticationProvider = DigestAuthenticationProvider(user: "u", password: "p")
        let value = try await client.perform(WebServiceCall<String>(relativePath: "d"))
        XCTAssertEqual(value, "fresh")
        XCTAssertEqual(stubs.requests.count, 3)
    }

    func testEndlessStaleStopsWithATypedError() async {
        let stubs = StubTransport()
        stubs.stub(
            where: { $0.value(forHTTPHeaderField: "Authorization") == nil },
            with: .status(401, headers: ["WWW-Authenticate": Self.digestChallenge]))
        stubs.stub(
            where: { $0.value(forHTTPHeaderField: "Authorization") != nil },
            with: .status(
                401, headers: ["WWW-Authenticate": #"Digest realm="r", nonce="x\#(UUID())", qop="auth", stale=true"#]))
        let client = client(stubs)
        client.authenticationProvider = DigestAuthenticationProvider(user: "u", password: "p")
        do {
            _ = try await client.perform(WebServiceCall<Data>(relativePath: "d"))
            XCTFail("must stop")
        } catch {
            guard case .authentication = error.reason else { return XCTFail("\(error)") }
        }
        XCTAssertLessThanOrEqual(stubs.requests.count, 4, "bounded retries")
    }

    func testDigestWrongPasswordIsAnAuthenticationError() async {
        let stubs = StubTransport(fallback: .status(401, headers: ["WWW-Authenticate": Self.digestChallenge]))
        let client = client(stubs)
        client.authenticationProvider = DigestAuthenticationProvider(user: "u", password: "bad")
        do {
            _ = try await client.perform(WebServiceCall<Data>(relativePath: "d"))
            XCTFail("must fail")
        } catch {
            guard case .authentication(let reason) = error.reason else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("refused"), reason)
        }
        XCTAssertEqual(stubs.requests.count, 2)
    }

    func testUnsupportedAlgorithmIsNeverDowngraded() async {
        let stubs = StubTransport(
            fallback: .status(401, headers: ["WWW-Authenticate": #"Digest realm="r", nonce="n", algorithm=SHA3-512"#]))
        let client = client(stubs)
        client.authenticationProvider = DigestAuthenticationProvider(user: "u", password: "p")
        do {
            _ = try await client.perform(WebServiceCall<Data>(relativePath: "d"))
            XCTFail("must fail")
        } catch {
            guard case .authentication(let reason) = error.reason else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("SHA3-512"), reason)
        }
        XCTAssertEqual(stubs.requests.count, 1)
    }

    func testConcurrentCallsShareOneChallenge() async throws {
        let stubs = digestStubs()
        stubs.stub(
            where: { $0.value(forHTTPHeaderField: "Authorization") == nil },
            with: StubTransport.Stub(statusCode: 401, headers: ["WWW-Authenticate": Self.digestChallenge], delay: 0.05))
        let client = client(stubs)
        client.authenticationProvider = DigestAuthenticationProvider(user: "u", password: "p")
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 { group.addTask { try await client.perform(WebServiceCall<String>(relativePath: "d")) } }
            for try await value in group { XCTAssertEqual(value, "secret") }
        }
        XCTAssertEqual(stubs.requests.filter { authorization($0) == nil }.count, 1, "one discovery for 20 calls")
        XCTAssertEqual(stubs.requests.count, 21)
        let counts = Set(
            stubs.requests.compactMap(authorization).compactMap {
                $0.range(of: "nc=").map { h in h.upperBound } != nil ? $0 : nil
            })
        XCTAssertEqual(counts.count, 20, "every request signs with its own nc and cnonce")
    }

    func testWaitingForDiscoveryIsCancellable() async throws {
        let stubs = StubTransport()
        stubs.stub(
            where: { $0.value(forHTTPHeaderField: "Authorization") == nil },
            with: StubTransport.Stub(statusCode: 401, headers: ["WWW-Authenticate": Self.digestChallenge], delay: 5))
        let client = client(stubs)
        client.authenticationProvider = DigestAuthenticationProvider(user: "u", password: "p")
        let discoverer = Task { try await client.perform(WebServiceCall<Data>(relativePath: "d")) }
        try await Task.sleep(nanoseconds: 100_000_000)
        let waiter = Task { try await client.perform(WebServiceCall<Data>(relativePath: "d")) }
        try await Task.sleep(nanoseconds: 100_000_000)
        let started = Date()
        waiter.cancel()
        let result = await waiter.result
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
        guard case .failure(let error as WebServiceError) = result, error.isCancelled else {
            return XCTFail("\(result)")
        }
        discoverer.cancel()
        _ = await discoverer.result
    }
}
