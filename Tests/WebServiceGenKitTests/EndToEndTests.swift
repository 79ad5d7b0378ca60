import Foundation
import WebServiceGenKit
import XCTest

/// The issue's end-to-end test: generates Swift from the Google Places IDL of ifacegen's
/// documentation and from an HTTPIDL file, builds it in a package of its own that depends on
/// WebServiceKit by path (warnings are errors), and runs the calls through `StubTransport` and
/// against the local httpbin's `/anything`.
///
/// The package and its build live under the repository's `.build/webservice-gen-e2e`, which git
/// ignores, so a second run only rebuilds what changed.
final class EndToEndTests: XCTestCase {
    func testGeneratedCallsCompileAndRun() throws {
        let httpbin = try httpbinURL()
        let fixtures = repositoryRoot.appendingPathComponent("Samples/GeneratedPlaces")
        let swift = try WebServiceGenerator(options: GeneratorOptions(access: .public)).generate([
            fixtures.appendingPathComponent("GooglePlaces.json").path,
            fixtures.appendingPathComponent("Notes.http").path,
        ])

        let work = repositoryRoot.appendingPathComponent(".build/webservice-gen-e2e")
        let package = work.appendingPathComponent("GeneratedCheck")
        let sources = package.appendingPathComponent("Sources/GeneratedCheck")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try writeIfChanged(packageManifest, to: package.appendingPathComponent("Package.swift"))
        try writeIfChanged(swift, to: sources.appendingPathComponent("Generated.swift"))
        try writeIfChanged(mainSource, to: sources.appendingPathComponent("main.swift"))
        // The golden test's output too (a namespace, `raw`, `extends`, keywords, Data bodies).
        let golden = try generate(
            GoldenTests.inputs, inputs: ["Shop.json", "Files.http"], options: GoldenTests.options)
        try writeIfChanged(golden, to: sources.appendingPathComponent("Golden.swift"))

        let scratch = work.appendingPathComponent("scratch")
        let build = try run(
            "swift", ["build", "--package-path", package.path, "--scratch-path", scratch.path], environment: [:])
        XCTAssertEqual(build.status, 0, "the generated code does not build:\n\(build.output)")
        guard build.status == 0 else { return }
        XCTAssertFalse(build.output.contains("warning:"), "the generated code has warnings:\n\(build.output)")

        let echoRoot = httpbin.appendingPathComponent("anything/").absoluteString
        let result = try run(
            scratch.appendingPathComponent("debug/GeneratedCheck").path, [], environment: ["ECHO_ROOT": echoRoot])
        XCTAssertEqual(result.status, 0, result.output)
        let lines = Set(result.output.split(separator: "\n").map(String.init))
        let expected = [
            // Google Places through StubTransport: the canned document decodes into the generated structs.
            "stub.name=Google Sydney",
            "stub.address=48 Pirrama Road, Pyrmont NSW, Australia",
            "stub.location=-33.866971,151.195875",
            "stub.types=establishment",
            "stub.status=OK",
            "stub.query=key=k-1&reference=ref%202&sensor=true",
            "stub.path=/maps/api/place/details/json",
            "stub.roundTrip=true",
            // The generated placeDetails template against httpbin.
            "places.method=GET",
            "places.path=/anything/place/details/json",
            "places.args=key=k-1,reference=ref 2,sensor=true",
            // HTTPIDL calls against httpbin, decoded into the generated response types.
            "get.method=GET",
            "get.path=/anything/notes/n 1",
            "get.args=language=en,limit=5",
            "getWithoutOptionals.args=",
            "post.title=Groceries",
            "post.tags=home,food",
            "post.pinned=true",
            "post.data={\"is_pinned\":true,\"tags\":[\"home\",\"food\"],\"title\":\"Groceries\"}",
            "delete=ok",
            "multipart.form=caption=Hello",
            "multipart.files=content=hello bytes",
            "golden.saved=true",
            "golden.path=/maps/api/shops/3/items",
            "golden.body=true",
            "golden.put=PUT /anything/files/a.txt",
        ]
        for line in expected {
            XCTAssertTrue(lines.contains(line), "missing '\(line)' in the output:\n\(result.output)")
        }
    }

    private var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// Like the integration tests: skips without httpbin, fails when the servers are required.
    private func httpbinURL() throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let text = environment["WEBSERVICEKIT_HTTPBIN_URL"], let url = URL(string: text) {
            precondition(url.host == "127.0.0.1", "tests talk to 127.0.0.1 only")
            return url
        }
        if environment["WEBSERVICEKIT_REQUIRE_SERVERS"] == "1" {
            XCTFail("WEBSERVICEKIT_HTTPBIN_URL is not set: run Scripts/test")
        }
        throw XCTSkip("WEBSERVICEKIT_HTTPBIN_URL is not set; run Scripts/test")
    }

    private func writeIfChanged(_ text: String, to url: URL) throws {
        let data = Data(text.utf8)
        if FileManager.default.contents(atPath: url.path) != data { try data.write(to: url) }
    }

    private func run(
        _ program: String, _ arguments: [String], environment: [String: String]
    ) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    private var packageManifest: String {
        let identity = repositoryRoot.lastPathComponent
        return """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "GeneratedCheck",
                platforms: [.macOS(.v13)],
                dependencies: [.package(path: \(literal(repositoryRoot.path)))],
                targets: [
                    .executableTarget(
                        name: "GeneratedCheck",
                        dependencies: [
                            .product(name: "WebServiceKit", package: \(literal(identity))),
                            .product(name: "WebServiceKitTesting", package: \(literal(identity))),
                        ],
                        swiftSettings: [.unsafeFlags(["-warnings-as-errors"])])
                ],
                swiftLanguageModes: [.v6]
            )

            """
    }

    private func literal(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// The program that runs the generated calls and prints what it saw, one `key=value` a line.
    private let mainSource = #"""
        import Foundation
        import WebServiceKit
        import WebServiceKitTesting

        #if canImport(FoundationNetworking)
            import FoundationNetworking
        #endif

        /// What httpbin's /anything echoes (the parts this program reads).
        struct Echo: Decodable, Sendable {
            let method: String
            let url: String
            let args: [String: String]
        }

        func show(_ args: [String: String]?) -> String {
            (args ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        }

        func path(_ url: String?) -> String { URLComponents(string: url ?? "")?.path ?? "" }

        // Google Places through StubTransport, with a canned answer.
        let canned = """
            {"result": {"formatted_address": "48 Pirrama Road, Pyrmont NSW, Australia",
                        "formatted_phone_number": "(02) 9374 4000",
                        "geometry": {"location": {"lat": -33.866971, "lng": 151.195875}},
                        "name": "Google Sydney", "types": ["establishment"]},
             "status": "OK"}
            """
        let stubs = StubTransport()
        stubs.stub(.placeDetails, with: .text(canned, contentType: "application/json"))
        let stubClient = WebServiceClient(serviceRoot: URL(string: "https://places.example/maps/api/")!, transport: stubs)
        let details = try await stubClient.perform(.placeDetails, "k-1", "ref 2", "true")
        print("stub.name=\(details.result.name)")
        print("stub.address=\(details.result.formattedAddress)")
        print("stub.location=\(details.result.geometry.location.lat),\(details.result.geometry.location.lng)")
        print("stub.types=\(details.result.types.joined(separator: ","))")
        print("stub.status=\(details.status)")
        let sent = stubs.requests[0].request.url!
        print("stub.query=\(sent.query ?? "")")
        print("stub.path=\(sent.path)")
        let copy = try JSONDecoder().decode(GoogleDetailsResult.self, from: JSONEncoder().encode(details))
        print("stub.roundTrip=\(copy == details)")

        // The generated placeDetails template against httpbin, decoded as httpbin's echo.
        let client = WebServiceClient(serviceRoot: URL(string: ProcessInfo.processInfo.environment["ECHO_ROOT"]!)!)
        let placeDetails = WebServiceCall<GoogleDetailsResult>.placeDetails
        let echoed = try await client.perform(
            WebServiceCall<Echo>(name: "placeDetailsEcho", method: placeDetails.method, relativePath: placeDetails.relativePath),
            "k-1", "ref 2", "true")
        print("places.method=\(echoed.method)")
        print("places.path=\(path(echoed.url))")
        print("places.args=\(show(echoed.args))")

        // HTTPIDL calls against httpbin.
        let note = try await client.perform(.getNotesNoteId, "n 1", "en", Int32(5))
        print("get.method=\(note.method ?? "")")
        print("get.path=\(path(note.url))")
        print("get.args=\(show(note.args))")
        let bare = try await client.perform(.getNotesNoteId, "n 1", String?.none, Int32?.none)
        print("getWithoutOptionals.args=\(show(bare.args))")

        let created = try await client.perform(
            .postCreateNote, PostCreateNoteRequest(title: "Groceries", tags: ["home", "food"], pinned: true))
        print("post.title=\(created.json?.title ?? "")")
        print("post.tags=\((created.json?.tags ?? []).joined(separator: ","))")
        print("post.pinned=\(created.json?.pinned ?? false)")
        let sentBody = try JSONSerialization.jsonObject(with: Data((created.data ?? "").utf8))
        let sorted = try JSONSerialization.data(withJSONObject: sentBody, options: [.sortedKeys])
        print("post.data=\(String(decoding: sorted, as: UTF8.self))")

        _ = try await client.perform(.deleteNotesNoteId, "n 1")
        print("delete=ok")

        let upload = try await client.perform(
            .postAttachments, PostAttachmentsRequest(caption: "Hello", content: Data("hello bytes".utf8)).formData)
        print("multipart.form=\(show(upload.form))")
        print("multipart.files=\(show(upload.files))")

        // The golden file's calls: a JSON body with a namespaced model and `raw`, and a Data body.
        let item = Shop.Item(id: 7, default: true, extra: .object(["k": .array([.number(1), .null])]), parts: [])
        stubs.stub(.saveItem, with: .text(#"{"saved": true}"#, contentType: "application/json"))
        print("golden.saved=\(try await stubClient.perform(.saveItem, Int32(3), Bool?.none, item))")
        let itemSent = stubs.requests.last!.request
        print("golden.path=\(itemSent.url!.path)")
        let itemBody = try JSONDecoder().decode(Shop.Item.self, from: itemSent.httpBody ?? Data())
        print("golden.body=\(itemBody == item)")
        let put = try await client.perform(
            WebServiceCall<Echo>(method: WebServiceCall<EmptyResponse>.putFilesName.method, relativePath: WebServiceCall<EmptyResponse>.putFilesName.relativePath, bodyParameter: 1),
            "a.txt", Data("raw bytes".utf8))
        print("golden.put=\(put.method) \(path(put.url))")

        """#
}
