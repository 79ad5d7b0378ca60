// Throughput of ContentDecoder on one gzip file: `benchmark.sh` builds this with the library's
// ContentCoding sources (-O) and runs it. Prints the best of 5 runs in MB/s of decoded output.
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 2, let body = FileManager.default.contents(atPath: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: benchmark FILE.gz\n".utf8))
    exit(2)
}
var best = Double.infinity
var decoded = 0
for _ in 0..<5 {
    let started = DispatchTime.now().uptimeNanoseconds
    guard let decoder = try ContentDecoder(codings: ["gzip"], outputLimit: Int.max) else { exit(1) }
    var count = 0
    try body.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + 65536)
            try decoder.feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<end])) { count += $0.count }
            offset = end
        }
    }
    try decoder.finish { count += $0.count }
    best = min(best, Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
    decoded = count
}
let rate = Double(decoded) / best / 1e6
print(String(format: "ContentDecoder: %d bytes decoded in %.1f ms: %.0f MB/s", decoded, best * 1000, rate))
