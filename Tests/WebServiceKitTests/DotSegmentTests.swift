import XCTest

@testable import WebServiceKit

/// The dot-segment removal `validate(serviceRoot:)` shows a call's real path with, against the
/// examples of RFC 3986 §5.4.1 (each resolved against the base `http://a/b/c/d;p?q`, written here
/// as the merged path before removal).
final class DotSegmentTests: XCTestCase {
    func testRFC3986Examples() {
        let cases: [(merged: String, resolved: String)] = [
            ("/b/c/./g", "/b/c/g"), ("/b/c/g/.", "/b/c/g/"), ("/b/c/.", "/b/c/"), ("/b/c/./", "/b/c/"),
            ("/b/c/..", "/b/"), ("/b/c/../", "/b/"), ("/b/c/../g", "/b/g"), ("/b/c/../..", "/"),
            ("/b/c/../../", "/"), ("/b/c/../../g", "/g"), ("/b/c/../../../g", "/g"), ("/b/c/../../../../g", "/g"),
            ("/./g", "/g"), ("/../g", "/g"), ("/b/c/g.", "/b/c/g."), ("/b/c/.g", "/b/c/.g"),
            ("/b/c/g..", "/b/c/g.."), ("/b/c/..g", "/b/c/..g"), ("/b/c/./../g", "/b/g"), ("/b/c/./g/.", "/b/c/g/"),
            ("/b/c/g/./h", "/b/c/g/h"), ("/b/c/g/../h", "/b/c/h"), ("/b/c/g?y/./x", "/b/c/g?y/./x"),
            ("/b/c/g?y/../x", "/b/c/g?y/../x"),
        ]
        for (merged, resolved) in cases {
            XCTAssertEqual(CallDescriptor.removingDotSegments(merged), resolved, merged)
        }
    }
}
