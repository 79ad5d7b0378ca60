import Foundation
import WebServiceKit
import WebServiceKitJSONRPC
import WebServiceKitOData
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Item: Codable, Sendable {
    let name: String
}

private struct ServiceFailure: Decodable, Error, Sendable {
    let message: String
}

/// Non-UTF-8 and deeply nested bodies through every reading path: typed errors, never a crash.
final class HostileBodyTests: XCTestCase {
    /// `{"name":"café"}` in Latin-1: the é is the single byte 0xE9, invalid UTF-8.
    private static let latin1JSON = Data([
        0x7B, 0x22, 0x6E, 0x61, 0x6D, 0x65, 0x22, 0x3A, 0x22, 0x63, 0x61, 0x66, 0xE9, 0x22, 0x7D,
    ])
    /// Bytes that are no text in UTF-8: a lone continuation byte, an overlong form, a surrogate.
    private static let invalidUTF8 = Data([0x61, 0x80, 0x62, 0xC0, 0xAF, 0xED, 0xA0, 0x80, 0xFF, 0xFE])
    /// 100,000 opening brackets and as many closing ones.
    private static let deepJSON = Data(
        (String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
    private static let deepObject = Data(
        (String(repeating: #"{"a":"#, count: 100_000) + "1" + String(repeating: "}", count: 100_000)).utf8)

    private func makeClient(_ stub: StubTransport.Stub) -> (WebServiceClient, StubTransport) {
        makeStubClient(fallback: stub)
    }

    private func failure<R>(_ call: WebServiceCall<R>, _ stub: StubTransport.Stub, arguments: [any Sendable] = [])
        async -> WebServiceError?
    {
        let (client, _) = makeClient(stub)
        do {
            _ = try await client.response(for: call, arguments: arguments)
            return nil
        } catch {
            return error
        }
    }

    func testStringSerializerReadsTheDeclaredCharsetAndRefusesInvalidUTF8() async throws {
        let (client, _) = makeClient(
            .init(headers: ["Content-Type": "text/plain; charset=ISO-8859-1"], body: Data([0x63, 0x61, 0x66, 0xE9])))
        let text = try await client.perform(WebServiceCall<String>(relativePath: "t"))
        XCTAssertEqual(text, "caf\u{E9}")

        for contentType in ["text/plain; charset=utf-8", "text/plain", "text/plain; charset=\"utf-8\""] {
            let error = await failure(
                WebServiceCall<String>(relativePath: "t"),
                .init(headers: ["Content-Type": contentType], body: Self.invalidUTF8))
            guard case .decoding(let failure)? = error?.reason else { return XCTFail("\(String(describing: error))") }
            // The excerpt is safe text: the invalid bytes became U+FFFD.
            XCTAssertTrue(failure.bodyExcerpt.contains("\u{FFFD}"), failure.bodyExcerpt)
            XCTAssertFalse(failure.description.isEmpty)
        }
        // An unknown or hostile charset name is not a crash: a typed error or the default charset.
        for contentType in [
            "text/plain; charset=x-unknown-42", "text/plain; charset=\"\u{0}\"", "text/plain; charset=",
        ] {
            let (client, _) = makeClient(.init(headers: ["Content-Type": contentType], body: Data("ok".utf8)))
            do {
                let value = try await client.perform(WebServiceCall<String>(relativePath: "t"))
                XCTAssertEqual(value, "ok")
            } catch {
                // A NUL in the field itself is refused before decoding (RFC 9110 §5.5).
                switch error.reason {
                case .decoding: break
                case .transport(let failure) where failure.code == .badServerResponse: break
                default: return XCTFail("\(error)")
                }
            }
        }
    }

    func testJSONDecodingOfLatin1AndInvalidUTF8IsATypedError() async {
        for body in [Self.latin1JSON, Self.invalidUTF8] {
            for contentType in ["application/json", "application/json; charset=iso-8859-1"] {
                let error = await failure(
                    WebServiceCall<Item>(relativePath: "j"), .init(headers: ["Content-Type": contentType], body: body))
                guard case .decoding(let failure)? = error?.reason else {
                    // Reading the declared Latin-1 charset is a correct answer too.
                    if error == nil, contentType.contains("8859") { continue }
                    return XCTFail("\(String(describing: error))")
                }
                XCTAssertTrue("\(failure)".contains("status 200"), "\(failure)")
            }
        }
    }

    func testErrorHandlersSurviveNonUTF8Bodies() async {
        let odata = WebServiceCall<Data>(relativePath: "o", errorHandler: ODataErrorHandler())
        let decodable = WebServiceCall<Data>(
            relativePath: "d", errorHandler: DecodableErrorHandler(ServiceFailure.self))
        for body in [Self.latin1JSON, Self.invalidUTF8, Self.deepJSON, Self.deepObject] {
            for contentType in ["application/json", "application/xml", "text/plain"] {
                let stub = StubTransport.Stub(statusCode: 500, headers: ["Content-Type": contentType], body: body)
                // A body the Decodable handler cannot read leaves the status error in place.
                let error = await failure(decodable, stub)
                guard case .unacceptableStatus(500, _, _)? = error?.reason else {
                    return XCTFail("\(String(describing: error))")
                }
                // The OData handler keeps a bounded, decoded excerpt of a body it cannot parse.
                let odataError = await failure(odata, stub)
                guard case .application(let underlying as ODataError, 500)? = odataError?.reason else {
                    return XCTFail("\(String(describing: odataError))")
                }
                XCTAssertLessThanOrEqual(underlying.message.utf8.count, ODataErrorHandler.messageLimit * 3)
                XCTAssertFalse(underlying.message.isEmpty)
                XCTAssertLessThan("\(odataError!)".utf8.count, 4 * ODataErrorHandler.messageLimit)
            }
        }
    }

    func testLoggingNonUTF8BodiesShowsSomethingSafe() async throws {
        for (contentType, body, expected) in [
            ("application/json", Self.invalidUTF8, "[binary 10 bytes, application/json]"),
            ("text/plain; charset=utf-8", Self.invalidUTF8, "[binary 10 bytes, text/plain; charset=utf-8]"),
            ("", Self.invalidUTF8, "[binary 10 bytes]"),
            ("text/plain; charset=iso-8859-1", Self.latin1JSON, #"{"name":"caf\#u{E9}"}"#),
            ("application/json", Self.deepJSON, "[truncated: 64 of 200000 bytes shown]"),
        ] {
            let (client, _) = makeClient(.init(headers: ["Content-Type": contentType], body: body))
            let logger = CapturingLogger()
            client.logger = logger
            client.logLevel = .body
            client.logBodyLimit = 64
            _ = try await client.response(for: WebServiceCall<Data>(relativePath: "l"))
            let response = try XCTUnwrap(logger.messages.last?.text)
            XCTAssertTrue(response.hasPrefix("<-- 200"), response)
            // A summary of bytes that are no text in the declared charset, the decoded text, or an
            // excerpt within the limit: never the raw bytes, never a replacement character.
            XCTAssertTrue(response.components(separatedBy: "\n").contains(expected), response)
            XCTAssertFalse(response.contains("\u{FFFD}"), response)
            XCTAssertLessThan(response.utf8.count, 1024, response)
        }
    }

    func testDeeplyNestedJSONIsATypedDecodingErrorOnEveryJSONPath() async throws {
        for body in [Self.deepJSON, Self.deepObject] {
            let stub = StubTransport.Stub(headers: ["Content-Type": "application/json"], body: body)
            // The whole body decoded.
            let plain = await failure(WebServiceCall<[Item]>(relativePath: "a"), stub)
            guard case .decoding? = plain?.reason else { return XCTFail("\(String(describing: plain))") }
            // A serializationRoot.
            let rooted = await failure(WebServiceCall<Item>(relativePath: "a", serializationRoot: "a.a"), stub)
            guard case .decoding? = rooted?.reason else { return XCTFail("\(String(describing: rooted))") }
            // A JSONRPCValue, which is recursive.
            let value = await failure(WebServiceCall<JSONRPCValue>(relativePath: "a"), stub)
            guard case .decoding? = value?.reason else { return XCTFail("\(String(describing: value))") }
            // A JSON-RPC response.
            let (client, _) = makeClient(stub)
            do {
                _ = try await client.perform(JSONRPCEndpoint(relativePath: "rpc"), .subtract, [42, 23])
                XCTFail("decoded")
            } catch {
                guard case .decoding = error.reason else { return XCTFail("\(error)") }
            }
        }
        // Nesting within JSONRPCValue's limit still decodes: the guard is about depth, not JSON arrays.
        let levels = JSONRPCValue.maximumDepth
        let shallow = Data((String(repeating: "[", count: levels) + String(repeating: "]", count: levels)).utf8)
        let (client, _) = makeClient(.init(headers: ["Content-Type": "application/json"], body: shallow))
        let decoded = try await client.perform(WebServiceCall<JSONRPCValue>(relativePath: "a"))
        guard case .array = decoded else { return XCTFail("\(decoded)") }
    }

    func testDeeplyNestedErrorBodiesAreReadSafely() async {
        for body in [Self.deepJSON, Self.deepObject] {
            let stub = StubTransport.Stub(statusCode: 400, headers: ["Content-Type": "application/json"], body: body)
            let odata = await failure(WebServiceCall<Data>(relativePath: "o", errorHandler: ODataErrorHandler()), stub)
            guard case .application(let error as ODataError, 400)? = odata?.reason else {
                return XCTFail("\(String(describing: odata))")
            }
            XCTAssertEqual(error.message.utf8.count, ODataErrorHandler.messageLimit)
            let decodable = await failure(
                WebServiceCall<Data>(relativePath: "d", errorHandler: DecodableErrorHandler(ServiceFailure.self)), stub)
            guard case .unacceptableStatus(400, _, _)? = decodable?.reason else {
                return XCTFail("\(String(describing: decodable))")
            }
        }
    }
}
