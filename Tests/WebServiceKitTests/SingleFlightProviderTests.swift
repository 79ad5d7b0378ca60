import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class SingleFlightProviderTests: XCTestCase {
    /// Issues "token-1", "token-2", … and counts how often it was asked.
    private final class CountingLogin: CredentialAuthenticator, @unchecked Sendable {  // guarded by `lock`
        struct Token: Sendable, Equatable {
            let value: String
            let expired: Bool
        }

        private let lock = NSLock()
        private var issued = 0
        let delay: UInt64
        let failure: (any Error)?

        init(delay: UInt64 = 50_000_000, failure: (any Error)? = nil) {
            self.delay = delay
            self.failure = failure
        }

        var count: Int { lock.withLock { issued } }

        func authenticate(replacing current: Token?) async throws -> Token {
            try await Task.sleep(nanoseconds: delay)
            if let failure { throw failure }
            let number = lock.withLock {
                issued += 1
                return issued
            }
            return Token(value: "token-\(number)", expired: false)
        }

        func apply(_ credential: Token, to request: inout WebServiceRequest) {
            request.setValue("Bearer \(credential.value)", forHTTPHeaderField: "Authorization")
        }

        func requiresRefresh(_ credential: Token) -> Bool { credential.expired }
    }

    private func client(_ stubs: StubTransport) -> WebServiceClient {
        WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
    }

    /// Accepts only `token`; everything else is a 401.
    private func stubs(accepting token: String) -> StubTransport {
        let stubs = StubTransport(fallback: .status(401))
        stubs.stub(where: { $0.value(forHTTPHeaderField: "Authorization") == "Bearer \(token)" }, with: .text("ok"))
        return stubs
    }

    func testConcurrentRefusalsRefreshOnce() async throws {
        let login = CountingLogin()
        let stubs = stubs(accepting: "token-2")
        let client = client(stubs)
        let provider = SingleFlightAuthenticationProvider(
            login, credential: CountingLogin.Token(value: "old", expired: false))
        client.authenticationProvider = provider
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 { group.addTask { try await client.perform(WebServiceCall<String>(relativePath: "me")) } }
            for try await value in group { XCTAssertEqual(value, "ok") }
        }
        XCTAssertLessThanOrEqual(login.count, 2, "one login for the first burst at most, one refresh")
        XCTAssertEqual(provider.credential?.value, "token-\(login.count)")
    }

    func testLoginOnceForABurstWithoutACredential() async throws {
        let login = CountingLogin()
        let client = client(stubs(accepting: "token-1"))
        client.authenticationProvider = SingleFlightAuthenticationProvider(login)
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 { group.addTask { try await client.perform(WebServiceCall<String>(relativePath: "me")) } }
            for try await value in group { XCTAssertEqual(value, "ok") }
        }
        XCTAssertEqual(login.count, 1)
    }

    func testRefusalOfAReplacedCredentialRetriesWithoutRefreshing() async throws {
        let login = CountingLogin(delay: 0)
        let stubs = StubTransport(fallback: .status(401))
        stubs.stub(
            where: { $0.value(forHTTPHeaderField: "Authorization") == "Bearer stale" && $0.url?.path == "/slow" },
            with: StubTransport.Stub(statusCode: 401, delay: 0.3))
        stubs.stub(where: { $0.value(forHTTPHeaderField: "Authorization") == "Bearer token-1" }, with: .text("ok"))
        let client = client(stubs)
        client.authenticationProvider = SingleFlightAuthenticationProvider(
            login, credential: CountingLogin.Token(value: "stale", expired: false))
        // The slow call leaves with the stale token; the fast one gets refused and refreshes it.
        async let slow = client.perform(WebServiceCall<String>(relativePath: "slow"))
        try await Task.sleep(nanoseconds: 50_000_000)
        let fast = try await client.perform(WebServiceCall<String>(relativePath: "fast"))
        XCTAssertEqual(fast, "ok")
        let slowValue = try await slow
        XCTAssertEqual(slowValue, "ok")
        XCTAssertEqual(login.count, 1, "the slow call's 401 was for a replaced token: retried, not refreshed again")
    }

    func testExpiredCredentialIsRefreshedBeforeSending() async throws {
        let login = CountingLogin()
        let stubs = stubs(accepting: "token-1")
        let client = client(stubs)
        client.authenticationProvider = SingleFlightAuthenticationProvider(
            login, credential: CountingLogin.Token(value: "restored", expired: true))
        _ = try await client.perform(WebServiceCall<String>(relativePath: "a"))
        XCTAssertEqual(login.count, 1)
        XCTAssertEqual(stubs.requests.count, 1, "no request went out with the expired token")
    }

    func testRefreshesAreBounded() async {
        let login = CountingLogin(delay: 0)
        let client = client(StubTransport(fallback: .status(401)))
        client.authenticationProvider = SingleFlightAuthenticationProvider(
            login, refreshLimit: RefreshLimit(maximumCount: 3, interval: 60))
        var lastError: WebServiceError?
        for _ in 0..<3 {
            do {
                _ = try await client.perform(WebServiceCall<Data>(relativePath: "a"))
            } catch {
                lastError = error
            }
        }
        guard case .authentication(let reason)? = lastError?.reason else {
            return XCTFail("\(String(describing: lastError))")
        }
        XCTAssertTrue(reason.contains("stopping"), reason)
        XCTAssertEqual(login.count, 3)
    }

    func testAuthenticatorFailureFailsTheWaitingCalls() async {
        struct LoginDown: Error {}
        let client = client(StubTransport(fallback: .text("ok")))
        client.authenticationProvider = SingleFlightAuthenticationProvider(CountingLogin(failure: LoginDown()))
        do {
            _ = try await client.perform(WebServiceCall<String>(relativePath: "a"))
            XCTFail("must fail")
        } catch {
            guard case .authentication(let reason) = error.reason else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("LoginDown"), reason)
        }
    }

    func testWaitingForARefreshIsCancellable() async throws {
        let login = CountingLogin(delay: 3_000_000_000)
        let client = client(stubs(accepting: "token-1"))
        let provider = SingleFlightAuthenticationProvider(login)
        client.authenticationProvider = provider
        let first = Task { try await client.perform(WebServiceCall<String>(relativePath: "a")) }
        try await Task.sleep(nanoseconds: 100_000_000)
        let second = Task { try await client.perform(WebServiceCall<String>(relativePath: "a")) }
        try await Task.sleep(nanoseconds: 100_000_000)
        let started = Date()
        second.cancel()
        guard case .failure(let error as WebServiceError) = await second.result, error.isCancelled else {
            return XCTFail("the waiter must be cancelled")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 1)
        let value = try await first.value
        XCTAssertEqual(value, "ok", "the refresh went on for the other call")
        XCTAssertTrue(provider.isAuthenticated)
        await provider.invalidate()
        XCTAssertFalse(provider.isAuthenticated)
    }
}
