import Foundation
import WebServiceKit

extension WebServiceCall where Response == DownloadedFile {
    /// GET drip: `numbytes` bytes over `duration` seconds, with a Content-Length; argument 2 is
    /// the progress handler, the ``DownloadDestination`` argument says where the file goes.
    static let drip = WebServiceCall(
        name: "drip", relativePath: "drip?numbytes=%%0%%&duration=%%1%%&delay=0", timeout: 60,
        progressParameter: 2)
}

/// Downloads a body that arrives over two seconds straight to a file, with a progress bar, then
/// shows that a 404 leaves no file behind.
func demonstrateDownload(client: WebServiceClient) async {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("webservice-demo-\(UUID())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let destination = DownloadDestination(
        directory.appendingPathComponent("drip.bin"), createsIntermediateDirectories: true)
    let progress: ProgressHandler = { fraction, expected in
        let total = expected < 0 ? "?" : "\(expected / 1024) KiB"
        fflush(nil)
        let end = fraction >= 1 ? "\n" : ""
        FileHandle.standardOutput.write(Data("\r\(progressBar(fraction)) of \(total)\(end)".utf8))
    }
    do {
        let file = try await client.perform(.drip, [20_000, 2, progress, destination])
        print("wrote \(file.byteCount) bytes to \(file.url.lastPathComponent), never holding them in memory")
    } catch {
        print("\nfailed: \(error)")
    }
    let missing = WebServiceCall<DownloadedFile>(name: "missing", relativePath: "status/404")
    let nowhere = DownloadDestination(directory.appendingPathComponent("missing.bin"))
    do {
        _ = try await client.perform(missing, [nowhere])
    } catch {
        let left = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        print("a 404: \(error); files left besides drip.bin: \(left.filter { $0 != "drip.bin" }.count)")
    }
}
