import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The file a `URLSession` download task hands its delegate never outlives the delegate call:
/// FoundationNetworking (Linux) does not delete it, so every error body, redirect body or body
/// read into memory left a `UUID.tmp` in the temporary directory, six per test run.
final class TaskExchangeDownloadFileTests: XCTestCase {
    private func exchange(download: FileDownload?) -> TaskExchange {
        TaskExchange(
            context: TransportContext(
                call: CallDescriptor(CallFields(relativePath: "x"), supportsSerializationRoot: false),
                uploadLength: nil, progress: nil,
                responseBody: ResponseBodySink(maximumSize: nil, download: download, progress: nil)))
    }

    private func temporaryFile(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("wsk-task-\(UUID()).tmp")
        try Data(text.utf8).write(to: url)
        return url
    }

    private func response(_ status: Int) throws -> HTTPURLResponse {
        try XCTUnwrap(
            HTTPURLResponse(
                url: try XCTUnwrap(URL(string: "http://127.0.0.1/x")), statusCode: status, httpVersion: "HTTP/1.1",
                headerFields: [:]))
    }

    func testABodyReadIntoMemoryLeavesNoTemporaryFile() throws {
        let location = try temporaryFile("I'm a teapot")
        exchange(download: nil).finishDownload(at: location, response: try response(418))
        XCTAssertFalse(FileManager.default.fileExists(atPath: location.path), "the task's file is removed")
    }

    func testABodyMovedToTheCallsFileLeavesNoTemporaryFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wsk-task-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let download = try FileDownload(DownloadDestination(directory.appendingPathComponent("file.bin")))
        let location = try temporaryFile("the body")
        exchange(download: download).finishDownload(at: location, response: try response(200))
        XCTAssertFalse(FileManager.default.fileExists(atPath: location.path))
    }
}
