import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A client over a stub transport that answers everything with `fallback`.
func makeStubClient(fallback: StubTransport.Stub = .status(200)) -> (WebServiceClient, StubTransport) {
    let stubs = StubTransport(fallback: fallback)
    let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/v1/")!, transport: stubs)
    return (client, stubs)
}

/// Performs `call` and returns the request the transport received, or the error.
func sentRequest<R>(
    _ call: WebServiceCall<R>, _ arguments: [any Sendable], client: WebServiceClient? = nil
) async -> Result<WebServiceRequest, WebServiceError> {
    let (defaultClient, stubs) = makeStubClient()
    let client = client ?? defaultClient
    let transport = client.transport as? StubTransport ?? stubs
    do {
        _ = try await client.response(for: call, arguments: arguments)
    } catch {
        if transport.requests.isEmpty { return .failure(error) }
    }
    guard let request = transport.requests.last?.request else {
        return .failure(.invalidCall("nothing was sent"))
    }
    return .success(request)
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }

    var success: Success? { try? get() }
}

/// The error `call` fails with, `nil` when it succeeds (a `catch` pattern on a typed error can
/// crash Swift 6.3's SILGen; this reads the error without one).
func failure(_ call: () async throws -> Void) async -> WebServiceError? {
    do {
        try await call()
        return nil
    } catch {
        return error as? WebServiceError
    }
}
