import Foundation
import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// httpbin's answer to an authenticated call.
struct Authenticated: Decodable, Sendable {
    let authenticated: Bool
    let user: String
}

extension WebServiceCall where Response == Authenticated {
    /// httpbin's Basic-protected resource.
    static let basicProtected = WebServiceCall(name: "basicProtected", relativePath: "basic-auth/user/passwd")
    /// httpbin's Digest-protected resource, SHA-256 with qop=auth.
    static let digestProtected = WebServiceCall(
        name: "digestProtected", relativePath: "digest-auth/auth/user/passwd/SHA-256")
}

/// A transport that counts the requests it sends, to show what authentication costs on the wire.
final class CountingTransport: WebServiceTransport, @unchecked Sendable {  // `count` guarded by `lock`
    private let base = RoutingTransport(configuration: .ephemeral)
    private let lock = NSLock()
    private var count = 0

    var requests: Int { lock.withLock { count } }

    func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse {
        lock.withLock { count += 1 }
        return try await base.send(request, context: context)
    }
}

/// Calls a protected resource three times with `provider` and prints the round trips.
func demonstrate(
    _ call: WebServiceCall<Authenticated>, with provider: any AuthenticationProvider, root: URL
) async {
    let wire = CountingTransport()
    let client = WebServiceClient(serviceRoot: root, transport: wire)
    client.authenticationProvider = provider
    do {
        for attempt in 1...3 {
            let before = wire.requests
            let result = try await client.perform(call)
            print(
                "call \(attempt): authenticated=\(result.authenticated) as \(result.user), \(wire.requests - before) round trip(s)"
            )
        }
    } catch {
        print("failed: \(error)")
    }
}
