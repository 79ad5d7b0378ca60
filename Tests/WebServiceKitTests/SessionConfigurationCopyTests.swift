import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transports make their session from a copy of the configuration they are given: the
/// caller's object keeps its cache and cache policy (Docs/DescriptorReference.md, "Transports").
final class SessionConfigurationCopyTests: XCTestCase {
    private func configuration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .returnCacheDataElseLoad
        configuration.urlCache = URLCache(memoryCapacity: 1_024, diskCapacity: 0, diskPath: nil)
        return configuration
    }

    func testURLSessionTransportLeavesTheConfigurationItIsGivenAsItWas() {
        let given = configuration()
        let transport = URLSessionTransport(sessionConfiguration: given)
        XCTAssertEqual(given.requestCachePolicy, .returnCacheDataElseLoad)
        XCTAssertNotNil(given.urlCache)
        // The session's own copy has the library's settings.
        XCTAssertEqual(transport.session.configuration.requestCachePolicy, .reloadIgnoringLocalCacheData)
        XCTAssertNil(transport.session.configuration.urlCache)
    }

    func testRoutingTransportLeavesTheConfigurationItIsGivenAsItWas() {
        let given = configuration()
        _ = RoutingTransport(configuration: given)
        XCTAssertEqual(given.requestCachePolicy, .returnCacheDataElseLoad)
        XCTAssertNotNil(given.urlCache)
    }
}
