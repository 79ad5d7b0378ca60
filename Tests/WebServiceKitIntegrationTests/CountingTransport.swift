import Foundation
import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real transport (the client's default, `RoutingTransport`) that counts what crosses the
/// wire: requests and 401 challenges.
final class CountingTransport: WebServiceTransport, @unchecked Sendable {  // counters guarded by `lock`
    private let base: RoutingTransport
    private let lock = NSLock()
    private var requestCount = 0
    private var challengeCount = 0

    /// Each instance has its own cookie storage: httpbin's digest stale mode lives in cookies.
    init() { base = RoutingTransport(configuration: .ephemeral) }

    var requests: Int { lock.withLock { requestCount } }
    var challenges: Int { lock.withLock { challengeCount } }

    /// The routing transport's fields and cookies go with every request, as they would without
    /// the counter.
    var bridge: RequestBridge? { base.bridge }

    func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse {
        lock.withLock { requestCount += 1 }
        let response = try await base.send(request, context: context)
        if response.statusCode == 401 { lock.withLock { challengeCount += 1 } }
        return response
    }
}
