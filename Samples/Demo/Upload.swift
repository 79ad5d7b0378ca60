import Dispatch
import Foundation
import WebServiceKit

/// What httpbin echoes for a multipart POST.
struct UploadEcho: Decodable, Sendable {
    let form: [String: String]
    let files: [String: String]
}

extension WebServiceCall where Response == UploadEcho {
    /// POST a multipart form; argument 1 is the progress handler.
    static let upload = WebServiceCall(
        name: "upload", method: .post, relativePath: "post", timeout: 120, progressParameter: 1)
}

/// Draws `[#####.....]  42%` on one terminal line.
func progressBar(_ fraction: Double, width: Int = 30) -> String {
    let filled = Int((fraction * Double(width)).rounded(.down))
    return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
        + String(format: " %3.0f%%", fraction * 100)
}

/// Uploads a generated file with a text field and prints a progress bar as the bytes go out.
func demonstrateUpload(client: WebServiceClient) async {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("webservice-demo-\(UUID()).txt")
    let line = "WebServiceKit streams this file part by part, never loading it whole.\n"
    do {
        try Data(String(repeating: line, count: 60_000).utf8).write(to: file)
    } catch {
        print("could not write the demo file: \(error)")
        return
    }
    defer { try? FileManager.default.removeItem(at: file) }
    let progress: ProgressHandler = { fraction, expected in
        let total = expected < 0 ? "?" : "\(expected / 1024) KiB"
        // Unbuffered, so the bar redraws in place on a terminal; earlier print() output first.
        fflush(nil)
        let end = fraction >= 1 ? "\n" : ""
        FileHandle.standardOutput.write(Data("\r\(progressBar(max(0, fraction))) of \(total)\(end)".utf8))
    }
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        client.perform(
            .upload,
            [
                [
                    FormData(name: "title", value: "Notes"),
                    FormData(name: "notes", fileURL: file, contentType: "text/plain"),
                ], progress,
            ],
            success: { echo in
                let size = echo.files["notes"]?.utf8.count ?? 0
                print("httpbin received title=\(echo.form["title"] ?? "-") and a \(size / 1024) KiB file")
                done.resume()
            },
            failure: { error in
                print("\nfailed: \(error)")
                done.resume()
            })
    }
}
