// What Multipart.md's prose stands for: httpbin's echo, a file to send (made here, in the folder
// the program runs in) and a progress handler.
struct UploadEcho: Decodable, Sendable { let files: [String: String] }
let file = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("notes.txt")
try Data("Buy milk.\n".utf8).write(to: file)
let progress: ProgressHandler = { fraction, expected in print(fraction, expected) }
