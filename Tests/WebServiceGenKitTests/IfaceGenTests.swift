import WebServiceGenKit
import XCTest

final class IfaceGenTests: XCTestCase {
    static let googlePlaces = """
        {"iface": [
        {"struct": "GoogleLocation", "typedef": {"lat": "double", "lng": "double"}},
        {"struct": "GooglePlaceDetails", "typedef": {
            "formatted_address": "string", "geometry": {"location": "GoogleLocation"},
            "name": "string", "types": ["string"]}},
        {"struct": "GoogleDetailsResult", "typedef": {"result": "GooglePlaceDetails", "status": "string"}},
        {"procedure": "placeDetails", "endpoint": "/place/details/json",
         "url_params": {"key": "string", "reference": "string", "sensor": "string"},
         "response": "GoogleDetailsResult"}
        ]}
        """

    func testGooglePlacesModel() throws {
        let module = try load(["Places.json": Self.googlePlaces])
        XCTAssertEqual(
            module.structures.map(\.name),
            ["GoogleLocation", "GooglePlaceDetails", "GooglePlaceDetailsGeometry", "GoogleDetailsResult"])
        let details = module.structures[1]
        XCTAssertEqual(details.fields.map(\.key), ["formatted_address", "geometry", "name", "types"])
        XCTAssertEqual(
            details.fields.map(\.type), [.string, .named("GooglePlaceDetailsGeometry"), .string, .array(.string)])
        XCTAssertEqual(details.location, SourceLocation(file: "Places.json", line: 3, column: 12))
        let call = try XCTUnwrap(module.endpoints.first)
        XCTAssertEqual(call.name, "placeDetails")
        XCTAssertEqual(call.method, "GET")
        XCTAssertEqual(call.path, [.literal("place/details/json")])
        XCTAssertEqual(call.parameters.map(\.key), ["key", "reference", "sensor"])
        XCTAssertEqual(call.parameters.map(\.place), [.query, .query, .query])
        XCTAssertEqual(call.response, .named("GoogleDetailsResult"))
    }

    func testGooglePlacesDescriptor() throws {
        let swift = try generate(["Places.json": Self.googlePlaces])
        XCTAssertTrue(swift.contains("extension WebServiceCall where Response == GoogleDetailsResult {"))
        XCTAssertTrue(
            swift.contains(
                """
                    static let placeDetails = WebServiceCall(
                        name: "placeDetails",
                        method: .get,
                        relativePath: "place/details/json?key=%%0%%&reference=%%1%%&sensor=%%2%%")
                """))
        XCTAssertTrue(swift.contains("    /// - 1 `reference`: `String`, the query item `reference`\n"))
        XCTAssertTrue(swift.contains("case formattedAddress = \"formatted_address\""))
    }

    func testTypeMapping() throws {
        let module = try load([
            "T.json": iface(
                """
                {"struct": "All", "typedef": {"a": "int32", "b": "int64", "c": "bool", "d": "double", "e": "string",
                 "f": "raw", "g": "rawstr", "h": "string?", "i": [["int64"]], "j": [{"x": "int32"}], "k": "All?"}}
                """)
        ])
        let all = try XCTUnwrap(module.structures.first { $0.name == "All" })
        XCTAssertEqual(
            all.fields.map(\.type),
            [
                .int32, .int64, .bool, .double, .string, .json, .rawString, .string, .array(.array(.int64)),
                .array(.named("AllJItem")), .named("All"),
            ])
        XCTAssertEqual(all.fields.filter(\.isOptional).map(\.key), ["h", "k"])
        let swift = try generate(["T.json": iface(#"{"struct": "R", "typedef": {"raw_value": "raw", "s": "rawstr"}}"#)])
        XCTAssertTrue(swift.contains("    var rawValue: JSONValue\n"))
        XCTAssertTrue(swift.contains("    var s: String\n"))
        XCTAssertTrue(swift.contains("enum JSONValue: Codable, Sendable, Equatable {"))
        let withoutRaw = try generate(["T.json": iface(#"{"struct": "R", "typedef": {"s": "rawstr"}}"#)])
        XCTAssertFalse(withoutRaw.contains("JSONValue"))
    }

    func testExtendsCopiesTheParentsFieldsFirst() throws {
        let module = try load([
            "E.json": iface(
                """
                {"struct": "Extended", "extends": "Base", "typedef": {"another_field": "string"}},
                {"struct": "Base", "typedef": {"field": "int32"}},
                {"struct": "Deeper", "extends": "Extended", "typedef": {"z": "bool"}}
                """)
        ])
        XCTAssertEqual(module.structures[0].fields.map(\.key), ["field", "another_field"])
        XCTAssertEqual(module.structures[2].fields.map(\.key), ["field", "another_field", "z"])
    }

    func testEndpointTemplatesAndMethods() throws {
        let module = try load([
            "M.json": iface(
                """
                {"get": "userDocs", "endpoint": "api/user/${userName}/docs", "response": ["string"]},
                {"delete": "removeDoc", "endpoint": "/docs/${id}?force=true",
                 "url_params": {"id": "int64", "reason": "string?", "tags": ["string"]}},
                {"procedure": "send", "prefix": "rpc", "request": {"text": "string"}, "response": {"ok": "bool"}},
                {"procedure": "ping", "response": {"code": "int32", "message": "string"}}
                """)
        ])
        let userDocs = module.endpoints[0]
        XCTAssertEqual(userDocs.path, [.literal("api/user/"), .parameter("userName"), .literal("/docs")])
        XCTAssertEqual(userDocs.parameters.map(\.type), [.string])
        XCTAssertEqual(userDocs.response, .array(.string))
        let remove = module.endpoints[1]
        XCTAssertEqual(remove.method, "DELETE")
        XCTAssertEqual(remove.parameters.map(\.name), ["id", "reason", "tags"])
        XCTAssertEqual(remove.parameters.map(\.place), [.path, .query, .query])
        XCTAssertNil(remove.response)
        let send = module.endpoints[2]
        XCTAssertEqual(send.method, "POST")
        XCTAssertEqual(send.path, [.literal("rpc/send")])
        XCTAssertEqual(send.parameters.map(\.place), [.body])
        XCTAssertEqual(send.parameters.first?.type, .named("SendRequest"))
        XCTAssertEqual(send.response, .bool)
        XCTAssertEqual(send.responseRoot, "ok")
        XCTAssertEqual(module.endpoints[3].method, "GET")
        XCTAssertEqual(module.endpoints[3].response, .named("PingResponse"))

        let swift = try generate([
            "M.json": iface(
                """
                {"delete": "removeDoc", "endpoint": "/docs/${id}?force=true",
                 "url_params": {"id": "int64", "reason": "string?", "tags": ["string"]}},
                {"procedure": "send", "prefix": "rpc", "request": {"text": "string"}, "response": {"ok": "bool"}}
                """)
        ])
        XCTAssertTrue(swift.contains(#"relativePath: "docs/%%0%%?force=true&reason=%%1%%&tags=%%2%%")"#))
        XCTAssertTrue(swift.contains("/// - 1 `reason`: `String?`, the query item `reason` (`nil` leaves it out)"))
        XCTAssertTrue(
            swift.contains(
                """
                        relativePath: "rpc/send",
                        serializer: JSONResponseSerializer<Bool>(),
                        serializationRoot: "ok",
                        bodyParameter: 0)
                """))
    }

    func testImportsAreReadOnceAndComeFirst() throws {
        let files = [
            "api/Main.json": iface(
                """
                {"import": "types/Shared.json"},
                {"import": "Other.json"},
                {"struct": "Main", "typedef": {"s": "Shared", "o": "Other"}}
                """),
            "api/Other.json": iface(
                """
                {"import": "types/Shared.json"},
                {"struct": "Other", "typedef": {"s": "Shared"}}
                """),
            "api/types/Shared.json": iface(#"{"struct": "Shared", "typedef": {"x": "int32"}}"#),
        ]
        let module = try load(files, inputs: ["api/Main.json"])
        XCTAssertEqual(module.structures.map(\.name), ["Shared", "Other", "Main"])
    }

    func testImportCycleNamesTheChain() {
        let files = [
            "A.json": iface(#"{"import": "B.json"}, {"struct": "A", "typedef": {"x": "int32"}}"#),
            "B.json": iface(#"{"import": "C.json"}"#),
            "C.json": iface("\n  {\"import\": \"A.json\"}"),
        ]
        assertError(files, inputs: ["A.json"], "C.json", 3, 14, "import cycle: A.json -> B.json -> C.json -> A.json")
        assertError(
            ["Self.json": iface(#"{"import": "./Self.json"}"#)], "Self.json", 2, 12,
            "import cycle: Self.json -> ./Self.json")
    }
}
