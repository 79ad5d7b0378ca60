import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads to a file from the local httpbin through `RoutingTransport`, which writes the
/// body to disk as it arrives: on its HTTP/1.1 peer (Linux's default) and through the
/// session's download task, every test both ways.
final class FileDownloadIntegrationTests: XCTestCase {
    private static let streamBytes = WebServiceCall<DownloadedFile>(
        relativePath: "stream-bytes/%%0%%?seed=%%1%%&chunk_size=1024", progressParameter: 2)
    private static let streamBytesInMemory = WebServiceCall<Data>(
        relativePath: "stream-bytes/%%0%%?seed=%%1%%&chunk_size=1024")
    private static let drip = WebServiceCall<DownloadedFile>(
        relativePath: "drip?numbytes=%%0%%&duration=%%1%%&delay=0", timeout: 30, progressParameter: 2)
    private static let status = WebServiceCall<DownloadedFile>(relativePath: "status/%%0%%")

    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("wsk-download-it-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    private func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    /// A client on each path: the direct HTTP/1.1 connection and the session's download task.
    private func clients() throws -> [(path: String, client: WebServiceClient)] {
        let root = try HTTPBin.url()
        return [true, false].map { direct in
            (
                direct ? "direct" : "session",
                WebServiceClient(serviceRoot: root, transport: RoutingTransport(usesDirectHTTP1: direct))
            )
        }
    }

    /// Empties the directory between the two paths of a test.
    private func clear() throws {
        for name in try contents() { try FileManager.default.removeItem(at: directory.appendingPathComponent(name)) }
    }

    func testAChunkedBodyStreamsToTheFileWithProgress() async throws {
        for (path, client) in try clients() {
            let destination = directory.appendingPathComponent("stream.bin")
            let log = ProgressLog()
            // httpbin's largest chunked body: 100 KiB.
            let file = try await client.perform(
                Self.streamBytes, [102_400, 11, log.rich, DownloadDestination(destination)])
            XCTAssertEqual(file, DownloadedFile(url: destination, byteCount: 102_400), path)
            let expected = try await client.perform(Self.streamBytesInMemory, [102_400, 11])
            XCTAssertEqual(try Data(contentsOf: destination), expected, "the same bytes as in memory, \(path)")
            XCTAssertEqual(try contents(), ["stream.bin"], "no temporary file left, \(path)")
            XCTAssertEqual(log.richEvents.map(\.fraction), [0, 0, 1], "start, 64 KiB, end, \(path)")
            XCTAssertEqual(log.richEvents.last?.completedBytes, 102_400, path)
            try clear()
        }
    }

    func testAKnownLengthFileDownloadReportsFractions() async throws {
        for (path, client) in try clients() {
            let destination = directory.appendingPathComponent("drip.bin")
            let log = ProgressLog()
            let response = try await client.response(
                for: Self.drip, [20_000, 1, log.simple, DownloadDestination(destination)])
            XCTAssertEqual(response.value.byteCount, 20_000, path)
            XCTAssertEqual(response.body, Data(), path)
            XCTAssertEqual(try Data(contentsOf: destination).count, 20_000, path)
            log.assertCompleteRun(total: 20_000)
            XCTAssertEqual(try contents(), ["drip.bin"], path)
            try clear()
        }
    }

    func testA404LeavesNoFile() async throws {
        for (path, client) in try clients() {
            let destination = directory.appendingPathComponent("missing.bin")
            do {
                _ = try await client.perform(Self.status, [404, DownloadDestination(destination)])
                XCTFail("a 404 must fail, \(path)")
            } catch {
                XCTAssertEqual(error.statusCode, 404, "\(path): \(error)")
            }
            XCTAssertEqual(try contents(), [], path)
        }
    }

    func testAnErrorBodyReachesTheErrorFromTheSinkOnBothPathsAndARedirectIsFollowed() async throws {
        let redirect = WebServiceCall<DownloadedFile>(relativePath: "redirect-to?url=%%0%%")
        for (path, client) in try clients() {
            // httpbin's 418 has a body: the sink kept its start for the error (the file is gone).
            let destination = directory.appendingPathComponent("teapot.bin")
            do {
                _ = try await client.perform(Self.status, [418, DownloadDestination(destination)])
                XCTFail("a 418 must fail, \(path)")
            } catch {
                guard case .unacceptableStatus(418, _, let body) = error.reason else {
                    return XCTFail("\(path): \(error)")
                }
                XCTAssertTrue(String(decoding: body, as: UTF8.self).contains("teapot"), path)
            }
            XCTAssertEqual(try contents(), [], path)
            // A redirect's body is not the download: the file holds the final response's body.
            let target = try HTTPBin.url().appendingPathComponent("bytes/3000").absoluteString + "?seed=4"
            let file = try await client.perform(redirect, [target, DownloadDestination(destination)])
            XCTAssertEqual(file.byteCount, 3000, path)
            XCTAssertEqual(try Data(contentsOf: destination).count, 3000, path)
            try clear()
        }
    }

    func testACancelledDownloadLeavesNoFileBehind() async throws {
        for (_, client) in try clients() { try await cancelledDownloadLeavesNoFileBehind(client) }
    }

    private func cancelledDownloadLeavesNoFileBehind(_ client: WebServiceClient) async throws {
        let directory: URL = directory
        let destination = directory.appendingPathComponent("cancelled.bin")
        let started = expectation(description: "first progress")
        let log = ProgressLog(onFirstProgress: { started.fulfill() })
        let cancelled = expectation(description: "cancelled")
        let task = client.perform(
            Self.drip, [50_000, 5, log.simple, DownloadDestination(destination)],
            success: { _ in XCTFail("cancelled") },
            failure: { error in
                XCTAssertTrue(error.isCancelled, "\(error)")
                // The temporary file is gone before the failure callback runs.
                XCTAssertEqual(try? FileManager.default.contentsOfDirectory(atPath: directory.path), [])
                cancelled.fulfill()
            })
        await fulfillment(of: [started], timeout: 10)
        XCTAssertEqual(try contents().count, 1, "the temporary file, while the body comes")
        task.cancel()
        await fulfillment(of: [cancelled], timeout: 10)
        try await Task.sleep(nanoseconds: 300_000_000)
        XCTAssertEqual(try contents(), [])
        XCTAssertFalse(log.simpleEvents.contains { $0.fraction == 1 })
    }

    func testAFailedTransferLeavesNoFileBehind() async throws {
        let slow = WebServiceCall<DownloadedFile>(
            relativePath: "drip?numbytes=1000&duration=5&delay=0", timeout: 0.5)
        for (path, client) in try clients() {
            let destination = directory.appendingPathComponent("timeout.bin")
            do {
                _ = try await client.perform(slow, [DownloadDestination(destination)])
                XCTFail("the call must time out, \(path)")
            } catch {
                XCTAssertTrue(error.isTimeout, "\(path): \(error)")
            }
            XCTAssertEqual(try contents(), [], path)
        }
    }
}
