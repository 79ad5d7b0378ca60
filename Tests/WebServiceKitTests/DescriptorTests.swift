import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class DescriptorTests: XCTestCase {
    func testWellFormedDescriptorsValidate() throws {
        try WebServiceCall<Data>(relativePath: "users/%%0%%/repos?sort=%%1%%&page=%%2%%").validate()
        try WebServiceCall<Data>(relativePath: "", headers: ["X-User": "%%0%%"]).validate()
        try WebServiceCall<Data>(method: "PROPFIND", relativePath: "/dav/%%10%%").validate()
    }

    /// A call without wildcards keeps its URL per service root: clients on other roots sharing
    /// the descriptor must still get their own URL, in any order.
    func testAStaticCallBuildsTheRightURLForEveryServiceRoot() throws {
        let call = WebServiceCall<Data>(relativePath: "v1/items?sort=name")
        let first = WebServiceClient(serviceRoot: URL(string: "https://one.example/api")!)
        let second = WebServiceClient(serviceRoot: URL(string: "http://127.0.0.1:8080/")!)
        for _ in 0..<3 {
            XCTAssertEqual(
                try first.request(for: call, arguments: []).url?.absoluteString,
                "https://one.example/api/v1/items?sort=name")
            XCTAssertEqual(
                try second.request(for: call, arguments: []).url?.absoluteString,
                "http://127.0.0.1:8080/v1/items?sort=name")
        }
        let absolute = WebServiceCall<Data>(relativePath: "/health")
        XCTAssertEqual(
            try first.request(for: absolute, arguments: []).url?.absoluteString, "https://one.example/health")
        XCTAssertEqual(
            try second.request(for: absolute, arguments: []).url?.absoluteString, "http://127.0.0.1:8080/health")
        XCTAssertEqual(try first.request(for: call, arguments: []).httpMethod, "GET")
        let post = WebServiceCall<Data>(method: .post, relativePath: "v1/items")
        XCTAssertEqual(try first.request(for: post, arguments: []).httpMethod, "POST")
    }

    func testMalformedTemplatesAreInvalidCalls() {
        let malformed = [
            "users/%%x%%", "users/%%0", "users/%%%%", "a?b=%%-1%%", "a/%%1000%%", "a/%% 1%%", "a/%%0x%%",
            "a#frag", "a?=x",
        ]
        for path in malformed {
            let call = WebServiceCall<Data>(relativePath: path)
            XCTAssertThrowsError(try call.validate(), path) { error in
                guard case .invalidCall(let reason)? = (error as? WebServiceError)?.reason else {
                    return XCTFail("\(path): \(error)")
                }
                XCTAssertFalse(reason.isEmpty)
            }
        }
    }

    func testMalformedDescriptorFailsEveryCallWithoutCrashing() async {
        let call = WebServiceCall<Data>(relativePath: "users/%%x%%")
        let result = await sentRequest(call, ["a"])
        guard case .invalidCall(let reason)? = result.failure?.reason else { return XCTFail("\(result)") }
        XCTAssertTrue(reason.contains("%%x%%"), reason)
    }

    func testInvalidMethodAndHeaderNames() {
        XCTAssertThrowsError(try WebServiceCall<Data>(method: "GET X", relativePath: "a").validate())
        XCTAssertThrowsError(try WebServiceCall<Data>(method: "", relativePath: "a").validate())
        XCTAssertThrowsError(try WebServiceCall<Data>(relativePath: "a", headers: ["Bad Name": "x"]).validate()) {
            guard case .invalidHeader(let name, _)? = ($0 as? WebServiceError)?.reason else { return XCTFail("\($0)") }
            XCTAssertEqual(name, "Bad Name")
        }
    }

    func testLiteralHeaderWithCRLFIsRefusedWhenMade() {
        let call = WebServiceCall<Data>(relativePath: "a", headers: ["X-A": "1\r\nX-Injected: yes"])
        XCTAssertThrowsError(try call.validate()) {
            guard case .invalidHeader("X-A", let reason)? = ($0 as? WebServiceError)?.reason else {
                return XCTFail("\($0)")
            }
            XCTAssertTrue(reason.contains("CR or LF"))
        }
    }

    func testSerializationRootNeedsASerializerThatSupportsIt() {
        XCTAssertThrowsError(try WebServiceCall<Data>(relativePath: "a", serializationRoot: "x.y").validate())
        XCTAssertNoThrow(try WebServiceCall<[String: Int]>(relativePath: "a", serializationRoot: "x.y").validate())
        XCTAssertThrowsError(try WebServiceCall<Int>(relativePath: "a", serializationRoot: "x..y").validate())
    }

    func testParameterIndicesAreChecked() {
        XCTAssertThrowsError(try WebServiceCall<Data>(relativePath: "a", bodyParameter: -1).validate())
        XCTAssertThrowsError(
            try WebServiceCall<Data>(relativePath: "a", bodyParameter: 1, progressParameter: 1).validate())
        XCTAssertThrowsError(try WebServiceCall<Data>(relativePath: "a", timeout: 0).validate())
        XCTAssertThrowsError(try WebServiceCall<Data>(relativePath: "a", overridesClientSuccessCodes: true).validate())
        XCTAssertThrowsError(try WebServiceCall<Data>(relativePath: "a", multipartBoundary: "bad boundary ").validate())
        XCTAssertThrowsError(
            try WebServiceCall<Data>(relativePath: "a", multipartBoundary: String(repeating: "b", count: 71)).validate()
        )
    }

    func testDescriptorFieldsAreReadableOnTheCall() {
        let call = WebServiceCall<Data>(
            name: "download", method: .put, relativePath: "x/%%0%%", successCodes: [200..<300, 304],
            overridesClientSuccessCodes: true, bodyCharset: .windows1251, cache: .maxAge(30), progressParameter: 1,
            multipartBoundary: "b0undary", logLevel: .headers)
        XCTAssertEqual(call.name, "download")
        XCTAssertEqual(call.method, .put)
        XCTAssertEqual(call.relativePath, "x/%%0%%")
        XCTAssertEqual(call.successCodes?.contains(304), true)
        XCTAssertEqual(call.successCodes?.contains(305), false)
        XCTAssertTrue(call.overridesClientSuccessCodes)
        XCTAssertEqual(call.bodyCharset, .windows1251)
        XCTAssertEqual(call.cache, .maxAge(30))
        XCTAssertEqual(call.progressParameter, 1)
        XCTAssertEqual(call.multipartBoundary, "b0undary")
        XCTAssertEqual(call.logLevel, .headers)
        XCTAssertEqual(WebServiceCall<Data>(method: .delete, relativePath: "x").name, "DELETE x")
    }

    func testStatusCodes() {
        let codes: StatusCodes = [200..<300, 304, 400...401]
        XCTAssertEqual(codes.ranges, [200...299, 304...304, 400...401])
        XCTAssertTrue(codes.contains(204))
        XCTAssertTrue(codes.contains(401))
        XCTAssertFalse(codes.contains(300))
        XCTAssertFalse(codes.contains(402))
        XCTAssertEqual(codes.description, "200...299, 304, 400...401")
        XCTAssertFalse(StatusCodes([500..<500]).contains(500))
    }
}
