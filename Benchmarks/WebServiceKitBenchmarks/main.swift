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
if let exitCode = RawURLSessionUpload.childExitCode(for: CommandLine.arguments) {
    exit(exitCode)
}
// `webservice-bench --download-once URL DEST` (and `--raw-download-once`): the download measure's children.
if let exitCode = FileDownloadBenchmark.childExitCode(for: CommandLine.arguments) {
    exit(exitCode)
}

print("WebServiceKit benchmarks (release build, ratios against baselines measured in this run)")
SmallGetBenchmark.run()
let requestBuilding = RequestBuildingBenchmark.comparison()
requestBuilding.report(requestBuilding.run())
DecodeOverheadBenchmark.run()
MultipartUploadBenchmark.run()
FileDownloadBenchmark.run()
CacheHitBenchmark.run()
DigestRoundTripBenchmark.run()
