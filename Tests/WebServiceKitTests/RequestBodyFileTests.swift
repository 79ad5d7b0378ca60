import Foundation
import XCTest

@testable import WebServiceKit

/// `RequestBody.file(_:)`: a body streamed from a file, its length read when it is made, the file
/// opened anew for each send; a file that is not there, or not a file, is a typed error naming it.
final class RequestBodyFileTests: XCTestCase {
    func testAFileBodyHasTheFilesLengthAndBytesForEverySend() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("body-\(UUID().uuidString)")
        let bytes = Data((0..<70_000).map { UInt8($0 % 251) })
        try bytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let body = try RequestBody.file(file)
        XCTAssertEqual(body.length, 70_000)
        XCTAssertTrue(body.isReplayable)
        for _ in 0..<2 {
            var request = WebServiceRequest(url: URL(string: "http://127.0.0.1/upload")!, method: "PUT")
            try body.attach(to: &request, sendCount: 0)
            let stream = try XCTUnwrap(request.httpBodyStream)
            stream.open()
            var read = Data()
            var buffer = [UInt8](repeating: 0, count: 8192)
            while true {
                let count = stream.read(&buffer, maxLength: buffer.count)
                if count <= 0 { break }
                read.append(buffer, count: count)
            }
            stream.close()
            XCTAssertEqual(read, bytes)
        }
    }

    func testAMissingFileOrAFolderIsATypedErrorNamingIt() {
        let missing = URL(fileURLWithPath: "/nonexistent/body-\(UUID().uuidString)")
        XCTAssertThrowsError(try RequestBody.file(missing)) { error in
            guard case .requestSerialization(let reason) = (error as? WebServiceError)?.reason else {
                return XCTFail("\(error)")
            }
            XCTAssertTrue(reason.contains(missing.path), reason)
        }
        XCTAssertThrowsError(try RequestBody.file(FileManager.default.temporaryDirectory)) { error in
            XCTAssertTrue("\(error)".contains("is not a regular file"), "\(error)")
        }
    }
}
