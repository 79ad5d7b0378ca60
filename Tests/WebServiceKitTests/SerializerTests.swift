import Foundation
import WebServiceKit
import WebServiceKitTesting
import WebServiceKitXML
import XCTest

final class SerializerTests: XCTestCase {
    private struct Person: Codable, Equatable, Sendable { let name: String; let city: String }
    private struct Weather: Decodable, Sendable { let coord: Coord }
    private struct Coord: Decodable, Equatable, Sendable { let lon: Double; let lat: Double }

    private func client(_ stub: StubTransport.Stub) -> WebServiceClient {
        makeStubClient(fallback: stub).0
    }

    func testJSONBodyInWindows1251RoundTripsCyrillic() async throws {
        let call = WebServiceCall<Data>(method: .post, relativePath: "p", bodyCharset: .windows1251)
        let request = try await sentRequest(call, [Person(name: "Иван", city: "Москва")]).get()
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "application/json; charset=windows-1251")
        let body = try XCTUnwrap(request.httpBody)
        XCTAssertNil(String(data: body, encoding: .utf8).flatMap { $0.contains("Иван") ? $0 : nil }, "not UTF-8")
        let text = try XCTUnwrap(String(data: body, encoding: .windowsCP1251))
        XCTAssertEqual(
            try JSONDecoder().decode(Person.self, from: Data(text.utf8)), Person(name: "Иван", city: "Москва"))
        XCTAssertEqual(body.count, text.count, "one byte per character in windows-1251")
    }

    func testTextBodyInACharsetThatCannotHoldTheTextFails() async {
        let call = WebServiceCall<Data>(
            method: .post, relativePath: "p", requestSerializer: .text, bodyCharset: .isoLatin1)
        let result = await sentRequest(call, ["Привет"])
        guard case .requestSerialization(let reason)? = result.failure?.reason else { return XCTFail("\(result)") }
        XCTAssertTrue(reason.contains("iso-8859-1"), reason)
    }

    func testFormURLEncoding() async throws {
        let call = WebServiceCall<Data>(method: .post, relativePath: "f", requestSerializer: .formURLEncoded)
        let request = try await sentRequest(call, [["b": "x y+z", "a": "1&2=3", "c": "é*-._~"]]).get()
        XCTAssertEqual(
            String(decoding: request.httpBody ?? Data(), as: UTF8.self), "a=1%262%3D3&b=x+y%2Bz&c=%C3%A9*-._%7E")
        XCTAssertEqual(
            request.value(forHTTPHeaderField: "Content-Type"), "application/x-www-form-urlencoded; charset=utf-8")
    }

    func testFormURLEncodingOfEncodableAndCharset() async throws {
        struct Form: Encodable, Sendable {
            let name: String
            let tags: [String]
            let active: Bool
            let nested: [String: Int]
            let missing: String?
        }
        let call = WebServiceCall<Data>(
            method: .post, relativePath: "f", requestSerializer: .formURLEncoded, bodyCharset: .windows1251)
        let request = try await sentRequest(
            call, [Form(name: "Юг", tags: ["a", "b"], active: true, nested: ["k": 1], missing: nil)]
        ).get()
        XCTAssertEqual(
            String(decoding: request.httpBody ?? Data(), as: UTF8.self),
            "active=true&name=%DE%E3&nested%5Bk%5D=1&tags%5B%5D=a&tags%5B%5D=b")
    }

    func testSerializationRootDecodesOnlyTheSubValue() async throws {
        let json = #"{"coord":{"lon":-0.13,"lat":51.51},"list":[{"id":1},{"id":2,"when":"2020-01-02T03:04:05Z"}]}"#
        let client = client(.text(json, contentType: "application/json"))
        let lon: Double = try await client.perform(
            WebServiceCall<Double>(relativePath: "w", serializationRoot: "coord.lon"))
        XCTAssertEqual(lon, -0.13)
        let coord = try await client.perform(WebServiceCall<Coord>(relativePath: "w", serializationRoot: "coord"))
        XCTAssertEqual(coord, Coord(lon: -0.13, lat: 51.51))
        let id = try await client.perform(WebServiceCall<Int>(relativePath: "w", serializationRoot: "list.1.id"))
        XCTAssertEqual(id, 2)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        client.jsonDecoder = decoder
        let when = try await client.perform(WebServiceCall<Date>(relativePath: "w", serializationRoot: "list.1.when"))
        XCTAssertEqual(
            when, Date(timeIntervalSince1970: 1_577_934_245), "the client's date strategy applies at the root")
        do {
            _ = try await client.perform(WebServiceCall<Int>(relativePath: "w", serializationRoot: "coord.alt"))
            XCTFail("a missing step must fail")
        } catch {
            guard case .decoding(let failure) = error.reason else { return XCTFail("\(error)") }
            XCTAssertTrue(failure.description.contains("alt"), failure.description)
        }
        do {
            _ = try await client.perform(WebServiceCall<Int>(relativePath: "w", serializationRoot: "list.5.id"))
            XCTFail("an index past the end must fail")
        } catch {
            guard case .decoding = error.reason else { return XCTFail("\(error)") }
        }
    }

    func testOnlyADigitStepIndexesAnArray() async throws {
        // Found by the json-root fuzz target: `-0` and `+1` were read as indices 0 and 1.
        let json = #"{"list":[7,8],"-0":{"id":3},"+1":{"id":4}}"#
        let client = client(.text(json, contentType: "application/json"))
        let signed: Int = try await client.perform(WebServiceCall<Int>(relativePath: "w", serializationRoot: "-0.id"))
        XCTAssertEqual(signed, 3, "a signed step names an object member")
        let plus: Int = try await client.perform(WebServiceCall<Int>(relativePath: "w", serializationRoot: "+1.id"))
        XCTAssertEqual(plus, 4)
        for root in ["list.-0", "list.+1", "list.99999999999999999999"] {
            do {
                _ = try await client.perform(WebServiceCall<Int>(relativePath: "w", serializationRoot: root))
                XCTFail("\(root) must not find an element")
            } catch {
                guard case .decoding = error.reason else { return XCTFail("\(root): \(error)") }
            }
        }
        let second: Int = try await client.perform(WebServiceCall<Int>(relativePath: "w", serializationRoot: "list.1"))
        XCTAssertEqual(second, 8)
    }

    func testStringResponseUsesTheCharsetOfTheContentType() async throws {
        let body = "Привет".data(using: .windowsCP1251)!
        let client = client(.init(headers: ["Content-Type": "text/plain; charset=windows-1251"], body: body))
        let text: String = try await client.perform(WebServiceCall<String>(relativePath: "t"))
        XCTAssertEqual(text, "Привет")
    }

    func testJSONResponseInAnotherCharsetIsTranscoded() async throws {
        let body = #"{"name":"Иван","city":"Москва"}"#.data(using: .windowsCP1251)!
        let client = client(.init(headers: ["Content-Type": "application/json; charset=windows-1251"], body: body))
        let person: Person = try await client.perform(WebServiceCall<Person>(relativePath: "t"))
        XCTAssertEqual(person, Person(name: "Иван", city: "Москва"))
    }

    func testEmptyBodies() async throws {
        let client = client(.status(204))
        let optional: Person? = try await client.perform(WebServiceCall<Person?>(relativePath: "e"))
        XCTAssertNil(optional)
        _ = try await client.perform(WebServiceCall<EmptyResponse>(relativePath: "e"))
        let data: Data = try await client.perform(WebServiceCall<Data>(relativePath: "e"))
        XCTAssertTrue(data.isEmpty)
        let text: String = try await client.perform(WebServiceCall<String>(relativePath: "e"))
        XCTAssertEqual(text, "")
        do {
            _ = try await client.perform(WebServiceCall<Person>(relativePath: "e"))
            XCTFail("a non-optional value needs a body")
        } catch {
            guard case .emptyBody(204) = error.reason else { return XCTFail("\(error)") }
        }
    }

    func testDecodingFailureCarriesAnExcerpt() async {
        let client = client(.text("<html>not json</html>", contentType: "text/html"))
        do {
            _ = try await client.perform(WebServiceCall<Person>(relativePath: "h"))
            XCTFail("must not decode")
        } catch {
            guard case .decoding(let failure) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(failure.bodyExcerpt, "<html>not json</html>")
            XCTAssertEqual(failure.statusCode, 200)
            XCTAssertTrue(error.description.contains("<html>not json</html>"), error.description)
        }
    }

    func testLongBodiesAreExcerpted() async {
        let client = client(.text(String(repeating: "x", count: 5000)))
        do {
            _ = try await client.perform(WebServiceCall<Person>(relativePath: "h"))
            XCTFail("must not decode")
        } catch {
            guard case .decoding(let failure) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(failure.bodyExcerpt.count, 257)
            XCTAssertTrue(failure.bodyExcerpt.hasSuffix("…"))
        }
    }

    func testXMLRequestAndResponseSerializers() async throws {
        let call = WebServiceCall<Data>(
            method: .post, relativePath: "x", requestSerializer: .xml, bodyCharset: .windows1251)
        let request = try await sentRequest(call, [Person(name: "Иван", city: "Москва")]).get()
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "application/xml; charset=windows-1251")
        let text = try XCTUnwrap(String(data: request.httpBody ?? Data(), encoding: .windowsCP1251))
        XCTAssertTrue(text.hasPrefix(#"<?xml version="1.0" encoding="windows-1251"?>"#), text)
        XCTAssertTrue(text.contains("<city>Москва</city>"), text)

        let xml = #"<?xml version="1.0"?><Person><name>Анна</name><city>Казань</city></Person>"#
        let client = client(.text(xml, contentType: "application/xml"))
        let person = try await client.perform(
            WebServiceCall(relativePath: "x", serializer: XMLResponseSerializer<Person>()))
        XCTAssertEqual(person, Person(name: "Анна", city: "Казань"))
        let city = try await client.perform(
            WebServiceCall(relativePath: "x", serializer: XMLResponseSerializer<String>(), serializationRoot: "city"))
        XCTAssertEqual(city, "Казань")
    }

    func testCharsetLookup() {
        XCTAssertEqual(Charset(ianaName: "Windows-1251"), .windows1251)
        XCTAssertEqual(Charset(ianaName: "\"UTF-8\""), .utf8)
        XCTAssertEqual(Charset(ianaName: "latin1"), .isoLatin1)
        XCTAssertNil(Charset(ianaName: "x-unknown"))
    }
}
