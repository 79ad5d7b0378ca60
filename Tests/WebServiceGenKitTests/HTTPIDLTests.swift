import WebServiceGenKit
import XCTest

final class HTTPIDLTests: XCTestCase {
    func testReadmeExample() throws {
        let module = try load([
            "example.http": """
            MESSAGE /my/example {
            \tGET REQUEST {
            \t\tINT32 t1 = t;
            \t\tSTRING t2 = tt;
            \t}
            \tGET RESPONSE {
            \t\tINT64 x1 = x;
            \t\tDOUBLE x2 = xx;
            \t}
            }
            """
        ])
        let call = try XCTUnwrap(module.endpoints.first)
        XCTAssertEqual(call.name, "GetMyExample")
        XCTAssertEqual(call.method, "GET")
        XCTAssertEqual(call.path, [.literal("my/example")])
        XCTAssertEqual(call.parameters.map(\.key), ["t", "tt"])
        XCTAssertEqual(call.parameters.map(\.type), [.int32, .string])
        XCTAssertTrue(call.parameters.allSatisfy { $0.isOptional && $0.place == .query })
        XCTAssertEqual(call.response, .named("GetMyExampleResponse"))
        let response = try XCTUnwrap(module.structures.first)
        XCTAssertEqual(response.fields.map(\.name), ["x1", "x2"])
        XCTAssertEqual(response.fields.map(\.key), ["x", "xx"])
        XCTAssertTrue(response.fields.allSatisfy(\.isOptional))
        XCTAssertEqual(response.location, SourceLocation(file: "example.http", line: 6, column: 2))

        let swift = try generate([
            "example.http": "MESSAGE /my/example { GET REQUEST { INT32 t1 = t; } GET RESPONSE { INT64 x1 = x; } }"
        ])
        XCTAssertTrue(swift.contains(#"relativePath: "my/example?t=%%0%%")"#))
        XCTAssertTrue(swift.contains("    var x1: Int64?\n"))
        XCTAssertTrue(swift.contains("        case x1 = \"x\"\n"))
        XCTAssertTrue(swift.contains("static let getMyExample = WebServiceCall("))
    }

    func testTypesCommentsAndEscapes() throws {
        let module = try load([
            "t.http": """
            /* all the types */
            STRUCT Everything {
                INT32 a; UINT32 b; INT64 c; UINT64 d; BOOL e; DOUBLE f; STRING g; BLOB h; FILE i;
                ARRAY<ARRAY<STRING>> j;
                DICT<STRING, ARRAY<Everything>> k = k\\;ey ;
                DICT<INT64, BOOL> l = "quoted key";
                STRING m = odd-key.with/slash ;
            }
            """
        ])
        let fields = module.structures[0].fields
        XCTAssertEqual(
            fields.map(\.type),
            [
                .int32, .uint32, .int64, .uint64, .bool, .double, .string, .blob, .file, .array(.array(.string)),
                .dictionary(key: .string, value: .array(.named("Everything"))),
                .dictionary(key: .int64, value: .bool), .string,
            ])
        XCTAssertEqual(fields.suffix(3).map(\.key), ["k;ey", "quoted key", "odd-key.with/slash"])
    }

    func testURIParametersNamesAndBodies() throws {
        let module = try load([
            "m.http": """
            MESSAGE(Sticker) /sticker/$mediaId/under_line {
                GET REQUEST { INT64 mediaId; ARRAY<STRING> tag = tags; }
                GET RESPONSE { BLOB; }
                PUT REQUEST { STRING name; }
                POST REQUEST { Payload; }
                POST RESPONSE { ARRAY<Payload>; }
            }
            STRUCT Payload { STRING text; }
            MESSAGE /upload { POST REQUEST { STRING title; FILE file; } }
            """
        ])
        let get = module.endpoints[0]
        XCTAssertEqual(get.name, "GetSticker")
        XCTAssertEqual(get.path, [.literal("sticker/"), .parameter("mediaId"), .literal("/under_line")])
        XCTAssertEqual(get.parameters.map(\.type), [.int64, .array(.string)])
        XCTAssertEqual(get.parameters.map(\.place), [.path, .query])
        XCTAssertEqual(get.response, .blob)
        let put = module.endpoints[1]
        XCTAssertEqual(put.parameters.map(\.type), [.string, .named("PutStickerRequest")])
        XCTAssertEqual(put.parameters.map(\.place), [.path, .body])
        XCTAssertNil(put.response)
        let post = module.endpoints[2]
        XCTAssertEqual(post.parameters.map(\.type), [.string, .named("Payload")])
        XCTAssertEqual(post.response, .array(.named("Payload")))
        let upload = module.endpoints[3]
        XCTAssertEqual(upload.name, "PostUpload")
        XCTAssertEqual(upload.parameters.map(\.place), [.multipartBody])
        XCTAssertTrue(try XCTUnwrap(module.structures.first { $0.name == "PostUploadRequest" }).isMultipart)

        let swift = try generate([
            "m.http": "MESSAGE /upload { POST REQUEST { STRING title; FILE file; BLOB raw_bytes; } }"
        ])
        XCTAssertTrue(
            swift.contains(#"if let value = self.file { parts.append(FormData(name: "file", fileURL: value)) }"#))
        XCTAssertTrue(
            swift.contains(
                #"if let value = self.rawBytes { parts.append(FormData(name: "raw_bytes", data: value, fileName: "raw_bytes")) }"#
            ))
        XCTAssertTrue(swift.contains("extension WebServiceCall where Response == EmptyResponse {"))
        XCTAssertTrue(
            swift.contains("/// - 0: `[FormData]`, the multipart body: pass a `PostUploadRequest`'s `formData`"))
    }

    func testOddURIsArePercentEncoded() throws {
        let swift = try generate(["u.http": #"MESSAGE(Odd) /test/%^&**(/\$x/$y/哎呦?q {GET REQUEST {}}"#])
        XCTAssertTrue(swift.contains(#"relativePath: "test/%25%5E&**(/$x/%%0%%/%E5%93%8E%E5%91%A6?q")"#), swift)
        XCTAssertTrue(swift.contains("static let getOdd = WebServiceCall("))
    }
}
