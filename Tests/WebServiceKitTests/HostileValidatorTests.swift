import Foundation
import XCTest

@testable import WebServiceKit

/// Stored validators are echoed into `If-None-Match` only when they are a clean field value: the
/// transports differ on CR/LF (Foundation's setter drops the value on Linux, the direct transport
/// refuses the request), so the cache decides before either sees it.
final class HostileValidatorTests: XCTestCase {
    private func entry(etag: String) -> CacheEntry {
        let now = Date()
        return CacheEntry(
            method: .get, url: URL(string: "https://api.example.com/x")!, requestHeaders: [:], status: 200,
            responseHeaders: ["ETag": etag, "Cache-Control": "no-cache"], requestTime: now, responseTime: now)
    }

    func testAValidatorWithControlCharactersIsNotEchoed() {
        for etag in ["\"v1\"\r\nX-Evil: 1", "\"v1\u{0}\"", "\"v1\"\n", "\"v1\u{7F}\""] {
            XCTAssertNil(CacheRules.conditionalHeaders(for: entry(etag: etag))["If-None-Match"], etag.debugDescription)
        }
        XCTAssertEqual(CacheRules.conditionalHeaders(for: entry(etag: "W/\"v1\""))["If-None-Match"], "W/\"v1\"")
    }
}
