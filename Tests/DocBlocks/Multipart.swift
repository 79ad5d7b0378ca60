// What Multipart.md's prose stands for: httpbin's echo, a file to send and a progress handler.
struct UploadEcho: Decodable, Sendable { let files: [String: String] }
let file = URL(fileURLWithPath: "/tmp/notes.txt")
let progress: ProgressHandler = { fraction, expected in print(fraction, expected) }
