import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The Swift examples of Docs/Progress.md, compiled and run against StubTransport. When you
// change an example, change the page too.

extension WebServiceCall where Response == Data {
    /// Argument 1 is the progress handler.
    static let archive = WebServiceCall(relativePath: "archives/%%0%%", progressParameter: 1)
}

extension WebServiceCall where Response == DownloadedFile {
    /// Argument 1 is the progress handler.
    static let quarterlyReport = WebServiceCall(relativePath: "reports/%%0%%.pdf", progressParameter: 1)
}

final class ProgressGuideExamplesTests: XCTestCase {
    func testTwoHandlerTypes() async throws {
        let (client, _) = makeStubClient(fallback: .text("archive"))
        let bar: ProgressHandler = { fraction, expectedLength in print(Int(fraction * 100), "% of", expectedLength) }
        let data = try await client.perform(.archive, "2024", bar)
        let sameData = try await client.perform(
            .archive, arguments: ["2024", nil as ProgressHandler?],
            progress: { progress in print(progress.direction, progress.completedBytes, progress.expectedBytes ?? -1) })
        XCTAssertEqual(data, sameData)
    }

    func testDownloadsToAFile() async throws {
        let (client, _) = makeStubClient(fallback: .text("%PDF"))
        let documents = FileManager.default.temporaryDirectory.appendingPathComponent("wsk-guide-\(UUID())")
        defer { try? FileManager.default.removeItem(at: documents) }
        let bar: ProgressHandler = { _, _ in }
        let destination = DownloadDestination(
            documents.appendingPathComponent("q4.pdf"), existingFile: .replace, createsIntermediateDirectories: true)
        let file = try await client.perform(.quarterlyReport, ["2024-q4", bar, destination])
        print(file.url.path, file.byteCount)
        XCTAssertEqual(file.byteCount, 4)
    }
}
