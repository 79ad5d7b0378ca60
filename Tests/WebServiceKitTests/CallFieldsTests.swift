import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The descriptor's fields as one value: the initializer with one parameter per field and the
/// one that takes a ``CallFields`` make the same call, and each field reads back by name.
final class CallFieldsTests: XCTestCase {
    private struct Payload: Codable, Sendable { let title: String }
    private struct NoError: ResponseErrorHandler {
        func error(for response: ResponseContext, body: Data, statusAccepted: Bool) -> (any Error)? { nil }
    }
    private struct NoBuilder: URLBuilder {
        func accepts(_ argument: Any) -> Bool { false }
        func buildURL(from url: URL, arguments: [Any]) throws -> URL { url }
    }

    func testDefaultsAreThoseOfTheInitializerWithOneParameterPerField() {
        let listed = WebServiceCall<Data>(relativePath: "items/%%0%%")
        let fromFields = WebServiceCall<Data>(CallFields(relativePath: "items/%%0%%"))
        for call in [listed, fromFields] {
            XCTAssertNil(call.fields.name)
            XCTAssertEqual(call.name, "GET items/%%0%%")
            XCTAssertEqual(call.method, .get)
            XCTAssertEqual(call.relativePath, "items/%%0%%")
            XCTAssertEqual(call.headers, [:])
            XCTAssertNil(call.successCodes)
            XCTAssertFalse(call.overridesClientSuccessCodes)
            XCTAssertNil(call.serializationRoot)
            XCTAssertNil(call.requestSerializer)
            XCTAssertEqual(call.bodyCharset, .utf8)
            XCTAssertNil(call.bodyParameter)
            XCTAssertNil(call.timeout)
            XCTAssertEqual(call.cache, .automatic)
            XCTAssertNil(call.cacheIdentifier)
            XCTAssertNil(call.progressParameter)
            XCTAssertNil(call.urlBuilder)
            XCTAssertNil(call.errorHandler)
            XCTAssertNil(call.multipartBoundary)
            XCTAssertNil(call.logLevel)
        }
    }

    func testEveryParameterReachesItsField() throws {
        let call = WebServiceCall<[String: Int]>(
            name: "upload", method: .put, relativePath: "u/%%0%%", headers: ["X-A": "%%1%%"],
            successCodes: [200..<300, 304], overridesClientSuccessCodes: true, serializationRoot: "data.items",
            requestSerializer: FormURLEncodedRequestSerializer(), bodyCharset: .isoLatin1, bodyParameter: 3,
            timeout: 7, cache: .maxAge(60), cacheIdentifier: "u-%%0%%", progressParameter: 2,
            urlBuilder: NoBuilder(), errorHandler: NoError(), multipartBoundary: "b-1", logLevel: .headers)
        var fields = CallFields(method: .put, relativePath: "u/%%0%%")
        fields.name = "upload"
        fields.headers = ["X-A": "%%1%%"]
        fields.successCodes = [200..<300, 304]
        fields.overridesClientSuccessCodes = true
        fields.serializationRoot = "data.items"
        fields.requestSerializer = FormURLEncodedRequestSerializer()
        fields.bodyCharset = .isoLatin1
        fields.bodyParameter = 3
        fields.timeout = 7
        fields.cache = .maxAge(60)
        fields.cacheIdentifier = "u-%%0%%"
        fields.progressParameter = 2
        fields.urlBuilder = NoBuilder()
        fields.errorHandler = NoError()
        fields.multipartBoundary = "b-1"
        fields.logLevel = .headers
        let fromFields = WebServiceCall<[String: Int]>(fields)
        for descriptor in [call.descriptor, fromFields.descriptor] {
            XCTAssertEqual(descriptor.name, "upload")
            XCTAssertEqual(descriptor.method, .put)
            XCTAssertEqual(descriptor.relativePath, "u/%%0%%")
            XCTAssertEqual(descriptor.headers, ["X-A": "%%1%%"])
            XCTAssertEqual(descriptor.successCodes, [200..<300, 304])
            XCTAssertTrue(descriptor.overridesClientSuccessCodes)
            XCTAssertEqual(descriptor.serializationRoot, "data.items")
            XCTAssertTrue(descriptor.requestSerializer is FormURLEncodedRequestSerializer)
            XCTAssertEqual(descriptor.bodyCharset, .isoLatin1)
            XCTAssertEqual(descriptor.bodyParameter, 3)
            XCTAssertEqual(descriptor.timeout, 7)
            XCTAssertEqual(descriptor.cache, .maxAge(60))
            XCTAssertEqual(descriptor.cacheIdentifier, "u-%%0%%")
            XCTAssertEqual(descriptor.progressParameter, 2)
            XCTAssertTrue(descriptor.urlBuilder is NoBuilder)
            XCTAssertTrue(descriptor.errorHandler is NoError)
            XCTAssertEqual(descriptor.multipartBoundary, "b-1")
            XCTAssertEqual(descriptor.logLevel, .headers)
            XCTAssertNoThrow(try descriptor.validate())
        }
        XCTAssertNotEqual(call.id, fromFields.id, "each made descriptor has its own identity")
        XCTAssertEqual(call.descriptor.id, call.id)
    }

    func testAVariantOfACallIsANewCallWithOneFieldChanged() throws {
        let base = WebServiceCall<Data>(method: .post, relativePath: "items", headers: ["X-A": "1"], timeout: 5)
        var fields = base.fields
        fields.timeout = 60
        fields.name = "slow items"
        let slow = WebServiceCall<Data>(fields)
        XCTAssertEqual(slow.timeout, 60)
        XCTAssertEqual(slow.name, "slow items")
        XCTAssertEqual(slow.headers, ["X-A": "1"])
        XCTAssertEqual(slow.method, .post)
        XCTAssertEqual(base.timeout, 5, "the original keeps its fields")
        XCTAssertNotEqual(slow.id, base.id)
        let request = try WebServiceClient(serviceRoot: URL(string: "https://api.example.com/v1/")!)
            .request(for: slow, arguments: [Payload(title: "t")])
        XCTAssertEqual(request.timeoutInterval, 60)
        XCTAssertEqual(request.httpMethod, "POST")
        XCTAssertNotNil(request.httpBody)
    }

    func testACopiedDescriptorIsTheSameDescriptor() {
        let call = WebServiceCall<Data>(relativePath: "a")
        let copy = call
        XCTAssertEqual(copy.id, call.id)
        XCTAssertEqual(copy.descriptor.id, call.descriptor.id)
    }

    func testFieldsAreCheckedWhicheverInitializerMadeThem() {
        var fields = CallFields(relativePath: "a")
        fields.timeout = 0
        XCTAssertThrowsError(try WebServiceCall<Data>(fields).validate()) { error in
            guard case .invalidCall(let reason)? = (error as? WebServiceError)?.reason else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(reason, "timeout must be positive; got 0.0")
        }
        var rooted = CallFields(relativePath: "a")
        rooted.serializationRoot = "x"
        XCTAssertThrowsError(try WebServiceCall<Data>(rooted, serializer: DataResponseSerializer()).validate())
        XCTAssertNoThrow(try WebServiceCall<[String: Int]>(rooted).validate(), "JSON supports a root")
    }

    func testADownloadFromFieldsIsNeverCached() throws {
        var fields = CallFields(relativePath: "file.bin")
        fields.cache = .maxAge(600)
        fields.timeout = 30
        let download = WebServiceCall<DownloadedFile>(fields)
        XCTAssertEqual(download.cache, .disabled)
        XCTAssertEqual(download.timeout, 30)
        XCTAssertEqual(WebServiceCall<DownloadedFile>(relativePath: "file.bin").cache, .disabled)
    }

    func testADownloadFromFieldsWritesItsFile() async throws {
        let (client, _) = makeStubClient(fallback: .text("file body"))
        let file = try await client.perform(WebServiceCall<DownloadedFile>(CallFields(relativePath: "f")))
        defer { try? FileManager.default.removeItem(at: file.url) }
        XCTAssertEqual(try Data(contentsOf: file.url), Data("file body".utf8))
    }
}
