import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads to a file through a transport that keeps bodies in memory (the stub): the client
/// writes the file itself, with the same rules as for streamed bodies.
final class FileDownloadTests: XCTestCase {
    private static let file = WebServiceCall<DownloadedFile>(relativePath: "files/%%0%%")
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("wsk-download-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    private func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    func testTheBodyLandsAtTheDestinationAndNothingElseIsLeft() async throws {
        let (client, stubs) = makeStubClient(fallback: .text("hello, file"))
        let destination = directory.appendingPathComponent("a.txt")
        let response = try await client.response(for: Self.file, ["a", DownloadDestination(destination)])
        XCTAssertEqual(response.value, DownloadedFile(url: destination, byteCount: 11))
        XCTAssertEqual(response.body, Data(), "the body is in the file, not in memory")
        XCTAssertEqual(try String(contentsOf: destination, encoding: .utf8), "hello, file")
        XCTAssertEqual(try contents(), ["a.txt"])
        XCTAssertEqual(stubs.requests.first?.request.url?.path, "/v1/files/a")
    }

    func testAnUnacceptedStatusLeavesNoFileAndKeepsTheStartOfTheBodyForTheError() async throws {
        let (client, _) = makeStubClient(fallback: .text("no such file", statusCode: 404))
        let destination = directory.appendingPathComponent("missing.txt")
        let error = await failure { _ = try await client.perform(Self.file, ["x", DownloadDestination(destination)]) }
        guard case .unacceptableStatus(let code, _, let body)? = error?.reason else {
            return XCTFail("\(String(describing: error))")
        }
        XCTAssertEqual(code, 404)
        XCTAssertEqual(String(decoding: body, as: UTF8.self), "no such file")
        XCTAssertEqual(try contents(), [])
    }

    func testAnExistingFileFailsBeforeAnythingIsSentUnlessReplacing() async throws {
        let (client, stubs) = makeStubClient(fallback: .text("new"))
        let destination = directory.appendingPathComponent("b.txt")
        try Data("old".utf8).write(to: destination)
        let error = await failure { _ = try await client.perform(Self.file, ["b", DownloadDestination(destination)]) }
        guard case .download(.destinationExists(let url))? = error?.reason else {
            return XCTFail("\(String(describing: error))")
        }
        XCTAssertEqual(url, destination)
        XCTAssertTrue(stubs.requests.isEmpty)
        XCTAssertEqual(try String(contentsOf: destination, encoding: .utf8), "old")
        _ = try await client.perform(Self.file, ["b", DownloadDestination(destination, existingFile: .replace)])
        XCTAssertEqual(try String(contentsOf: destination, encoding: .utf8), "new")
        XCTAssertEqual(try contents(), ["b.txt"])
    }

    func testAnUnwritableDestinationIsATypedErrorAndMissingDirectoriesCanBeCreated() async throws {
        let (client, stubs) = makeStubClient(fallback: .text("x"))
        let nested = directory.appendingPathComponent("one/two/c.txt")
        let error = await failure { _ = try await client.perform(Self.file, ["c", DownloadDestination(nested)]) }
        guard case .download(.destinationNotWritable(let url, _))? = error?.reason else {
            return XCTFail("\(String(describing: error))")
        }
        XCTAssertEqual(url, nested)
        XCTAssertTrue(stubs.requests.isEmpty)
        let file = try await client.perform(
            Self.file, ["c", DownloadDestination(nested, createsIntermediateDirectories: true)])
        XCTAssertEqual(file.byteCount, 1)
        let directoryError = await failure {
            let one = self.directory.appendingPathComponent("one")
            _ = try await client.perform(Self.file, ["c", DownloadDestination(one)])
        }
        guard case .download(.destinationNotWritable)? = directoryError?.reason else {
            return XCTFail("a directory is not a destination: \(String(describing: directoryError))")
        }
    }

    func testTheTemporaryFileFollowsTheUmask() async throws {
        let (client, _) = makeStubClient(fallback: .text("x"))
        let destination = directory.appendingPathComponent("mode.txt")
        let previous = umask(0o027)
        defer { umask(previous) }
        _ = try await client.perform(Self.file, ["m", DownloadDestination(destination)])
        let attributes = try FileManager.default.attributesOfItem(atPath: destination.path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o640)
    }

    func testWithoutADestinationTheFileGoesToTheTemporaryDirectory() async throws {
        let (client, _) = makeStubClient(fallback: .text("temporary"))
        let file = try await client.perform(Self.file, ["t"])
        defer { try? FileManager.default.removeItem(at: file.url) }
        XCTAssertEqual(
            file.url.deletingLastPathComponent().standardizedFileURL.path,
            FileManager.default.temporaryDirectory.standardizedFileURL.path)
        XCTAssertEqual(try String(contentsOf: file.url, encoding: .utf8), "temporary")
    }

    func testADestinationNeedsADownloadCall() async throws {
        let (client, _) = makeStubClient(fallback: .text("x"))
        let call = WebServiceCall<Data>(relativePath: "d")
        let error = await failure {
            _ = try await client.perform(call, [DownloadDestination(self.directory.appendingPathComponent("d"))])
        }
        guard case .invalidArguments? = error?.reason else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(try contents(), [])
    }
}
