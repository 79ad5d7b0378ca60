import Foundation

// webservice-bench: the release-mode performance suite. Each line prints the library's figure,
// the baseline measured in the same run, their ratio (median and spread over alternating
// rounds) and the goal. Run it with Scripts/bench, or: swift run -c release webservice-bench

// `webservice-bench --upload-once URL [FILE]` is the child process of the upload measure.
if let exitCode = MultipartUploadBenchmark.childExitCode(for: CommandLine.arguments) {
    exit(exitCode)
}
if let exitCode = DecodeOverheadBenchmark.childExitCode(for: CommandLine.arguments) {
    exit(exitCode)
}
// `webservice-bench --small-get-form FORM`: one form of the small-GET measure, in a process of its own.
if let exitCode = SmallGetBenchmark.formExitCode(for: CommandLine.arguments) {
    exit(exitCode)
}
// `webservice-bench --profile-small-get URL N FORM`: one form of the small GET, for callgrind.
if let exitCode = SmallGetBenchmark.childExitCode(for: CommandLine.arguments) {
    exit(exitCode)
}
// `webservice-bench --profile-request-building N [bare]`: request building alone, for callgrind.
if let exitCode = RequestBuildingBenchmark.childExitCode(for: CommandLine.arguments) {
    exit(exitCode)
}
// `webservice-bench --profile-cache-hit N`: memory-cache hits alone, for callgrind.
if let exitCode = CacheHitBenchmark.childExitCode(for: CommandLine.arguments) {
    exit(exitCode)
}
if let exitCode = RawURLSessionUpload.childExitCode(for: CommandLine.arguments) {
    exit(exitCode)
}
// `webservice-bench --download-once URL DEST` (and `--raw-download-once`): the download measure's children.
if let exitCode = FileDownloadBenchmark.childExitCode(for: CommandLine.arguments) {
    exit(exitCode)
}
// `webservice-bench --size-once ITEM N`: one size of one row of the size-scaling measure.
if let exitCode = SizeScalingBenchmark.childExitCode(for: CommandLine.arguments) {
    exit(exitCode)
}
// `webservice-bench --scaling-once CLIENT C DELAY_MS ROOT`: one client at one concurrency of the scaling measure.
if let exitCode = ScalingBenchmark.childExitCode(for: CommandLine.arguments) {
    exit(exitCode)
}
// `webservice-bench --chaos-child ROOT C on|off CALLS ROUNDS RUN DIR`: the chaos soak's calls.
if let exitCode = ChaosSoakBenchmark.childExitCode(for: CommandLine.arguments) {
    exit(exitCode)
}
// `webservice-bench --profile-sse ROOT N FORM`: one read of an N-event stream, for callgrind.
if let exitCode = SSEStreamBenchmark.childExitCode(for: CommandLine.arguments) {
    exit(exitCode)
}

// `webservice-bench --only NAME[,NAME…]` runs some measures: small-get, request-building,
// decode, upload, download, cache, digest, size (`--size-items NAME,…` picks rows of size),
// scaling (`--scaling-delay MS`, `--scaling-c N,…`), sse, handshakes, yaml, openapi-gen, chaos (`--chaos-c N,…`,
// `--chaos-calls N`, `--chaos-rounds N`, `--chaos-retries off,on`).
let only: Set<String>? = CommandLine.arguments.firstIndex(of: "--only").flatMap { index in
    index + 1 < CommandLine.arguments.count
        ? Set(CommandLine.arguments[index + 1].split(separator: ",").map(String.init)) : nil
}
func runs(_ name: String) -> Bool { only?.contains(name) ?? true }

print("WebServiceKit benchmarks (release build, ratios against baselines measured in this run)")
if runs("small-get") { SmallGetBenchmark.run() }
if runs("request-building") {
    let requestBuilding = RequestBuildingBenchmark.comparison()
    requestBuilding.report(requestBuilding.run())
}
if runs("decode") { DecodeOverheadBenchmark.run() }
if runs("upload") { MultipartUploadBenchmark.run() }
if runs("download") { FileDownloadBenchmark.run() }
if runs("cache") { CacheHitBenchmark.run() }
if runs("digest") { DigestRoundTripBenchmark.run() }
if runs("size") { SizeScalingBenchmark.run() }
if runs("scaling") { ScalingBenchmark.run() }
if runs("sse") { SSEStreamBenchmark.run() }
if runs("handshakes") { HandshakeBenchmark.run() }
if runs("yaml") { YAMLScalingBenchmark.run() }
if runs("openapi-gen") { OpenAPIGenerationBenchmark.run() }
if runs("chaos") { ChaosSoakBenchmark.run() }
