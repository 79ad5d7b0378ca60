import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads to a file from the local httpbin through `URLSessionTransport`, which writes the
/// body to disk as it arrives.
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

    func testAChunkedBodyStreamsToTheFileWithProgress() async throws {
        let client = try HTTPBin.client()
        let destination = directory.appendingPathComponent("stream.bin")
        let log = ProgressLog()
        // httpbin's largest chunked body: 100 KiB.
        let file = try await client.perform(
            Self.streamBytes, [102_400, 11, log.rich, DownloadDestination(destination)])
        XCTAssertEqual(file, DownloadedFile(url: destination, byteCount: 102_400))
        let expected = try await client.perform(Self.streamBytesInMemory, [102_400, 11])
        XCTAssertEqual(try Data(contentsOf: destination), expected, "the same bytes as in memory")
        XCTAssertEqual(try contents(), ["stream.bin"], "no temporary file left")
        XCTAssertEqual(log.richEvents.map(\.fraction), [0, 0, 1], "start, 64 KiB, end")
        XCTAssertEqual(log.richEvents.last?.completedBytes, 102_400)
    }

    func testAKnownLengthFileDownloadReportsFractions() async throws {
        let client = try HTTPBin.client()
        let destination = directory.appendingPathComponent("drip.bin")
        let log = ProgressLog()
        let response = try await client.response(
            for: Self.drip, [20_000, 1, log.simple, DownloadDestination(destination)])
        XCTAssertEqual(response.value.byteCount, 20_000)
        XCTAssertEqual(response.body, Data())
        XCTAssertEqual(try Data(contentsOf: destination).count, 20_000)
        log.assertCompleteRun(total: 20_000)
        XCTAssertEqual(try contents(), ["drip.bin"])
    }

    func testA404LeavesNoFile() async throws {
        let client = try HTTPBin.client()
        let destination = directory.appendingPathComponent("missing.bin")
        do {
            _ = try await client.perform(Self.status, [404, DownloadDestination(destination)])
            XCTFail("a 404 must fail")
        } catch {
            XCTAssertEqual(error.statusCode, 404, "\(error)")
        }
        XCTAssertEqual(try contents(), [])
    }

    func testACancelledDownloadLeavesNoFileBehind() async throws {
        let client = try HTTPBin.client()
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
        let client = try HTTPBin.client()
        let destination = directory.appendingPathComponent("timeout.bin")
        let slow = WebServiceCall<DownloadedFile>(
            relativePath: "drip?numbytes=1000&duration=5&delay=0", timeout: 0.5)
        do {
            _ = try await client.perform(slow, [DownloadDestination(destination)])
            XCTFail("the call must time out")
        } catch {
            XCTAssertTrue(error.isTimeout, "\(error)")
        }
        XCTAssertEqual(try contents(), [])
    }
}
