import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A custom provider that gets its token from an endpoint on another client, against httpbin's
/// `/bearer` (200 with any bearer token, 401 without).
final class HTTPBinTokenTests: XCTestCase {
    private struct Issued: Decodable, Sendable {
        let json: Request
        struct Request: Decodable, Sendable { let user: String }
    }

    private struct Bearer: Decodable, Sendable {
        let authenticated: Bool
        let token: String
    }

    /// "Logs in" by posting to `/anything` on a separate client, and counts the logins.
    private final class EchoLogin: CredentialAuthenticator, @unchecked Sendable {  // guarded by `lock`
        static let issue = WebServiceCall<Issued>(method: .post, relativePath: "anything/token")
        let authClient: WebServiceClient
        private let lock = NSLock()
        private var logins = 0

        init(authClient: WebServiceClient) { self.authClient = authClient }

        var count: Int { lock.withLock { logins } }

        func authenticate(replacing current: String?) async throws -> String {
            lock.withLock { logins += 1 }
            let issued = try await authClient.perform(Self.issue, ["user": "ann"])
            return "\(issued.json.user)-\(UUID().uuidString.prefix(8))"
        }

        func apply(_ token: String, to request: inout WebServiceRequest) {
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
    }

    func testBurstLogsInOnceThroughAnotherClient() async throws {
        let root = try HTTPBin.url()
        let login = EchoLogin(authClient: WebServiceClient(serviceRoot: root))
        let client = WebServiceClient(serviceRoot: root)
        let provider = SingleFlightAuthenticationProvider(login)
        client.authenticationProvider = provider
        let call = WebServiceCall<Bearer>(relativePath: "bearer")
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 { group.addTask { try await client.perform(call).token } }
            var tokens: Set<String> = []
            for try await token in group { tokens.insert(token) }
            return tokens
        }
        XCTAssertEqual(login.count, 1)
        XCTAssertEqual(tokens.count, 1)
        XCTAssertTrue(tokens.first?.hasPrefix("ann-") ?? false)
        await provider.invalidate()
        _ = try await client.perform(call)
        XCTAssertEqual(login.count, 2, "after invalidate the next call logs in again")
    }
}
