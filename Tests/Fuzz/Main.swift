// The libFuzzer entry point of the fuzz binary that `Scripts/fuzz` builds from the library's
// sources and the files of this directory (one module, so the targets reach internal API). It is
// not a SwiftPM target: libFuzzer supplies `main`, which would clash with a normal build.
//
// One binary serves every target; `WEBSERVICEKIT_FUZZ_TARGET` names the one to run.

import Foundation

/// Every fuzz target, by the name `Scripts/fuzz` takes. Each has a seed corpus in
/// `Tests/Fuzz/Corpus/<name>/`.
let fuzzTargets: [(name: String, run: @Sendable ([UInt8]) -> Void)] = [
    ("template", TemplateTarget.run),
    ("challenge", ChallengeTarget.run),
    ("cache-control", CacheControlTarget.run),
    ("cache-decision", CacheDecisionTarget.run),
    ("cache-key", CacheKeyTarget.run),
    ("http-date", HTTPDateTarget.run),
    ("multipart", MultipartTarget.run),
    ("odata-literal", ODataLiteralTarget.run),
    ("json-root", JSONRootTarget.run),
    ("http1-response", HTTP1ResponseTarget.run),
    ("inflate", InflateTarget.run),
    ("http1-chunked", HTTP1ChunkedTarget.run),
    ("cookie", CookieTarget.run),
    ("json-scan", JSONScanTarget.run),
    ("redaction", RedactionTarget.run),
    ("response-intake", ResponseIntakeTarget.run),
    ("byte-range", ByteRangeTarget.run),
    ("certificate", CertificateTarget.run),
    ("sse", ServerSentEventTarget.run),
    ("stream-formats", ResponseStreamFormatTarget.run),
    ("http1-machine", HTTP1ConnectionMachineTarget.run),
    ("tls-session", TLSSessionTarget.run),
    ("proxy-tunnel", ProxyTunnelTarget.run),
    ("json-body", JSONBodyTarget.run),
    ("query-items", QueryItemsTarget.run),
    ("yaml", YAMLTarget.run),
    ("openapi", OpenAPITarget.run),
]

/// The target `WEBSERVICEKIT_FUZZ_TARGET` names; `nil` when it names none.
let selectedTarget: (@Sendable ([UInt8]) -> Void)? = {
    guard let name = getenv("WEBSERVICEKIT_FUZZ_TARGET").map({ String(cString: $0) }) else { return nil }
    return fuzzTargets.first { $0.name == name }?.run
}()

/// Called once by libFuzzer before any input: refuses to start without a known target, and
/// prints the target names when asked with `WEBSERVICEKIT_FUZZ_TARGET=--list`.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>
) -> CInt {
    let requested = getenv("WEBSERVICEKIT_FUZZ_TARGET").map { String(cString: $0) }
    if requested == "--list" {
        for target in fuzzTargets { print(target.name) }
        exit(0)
    }
    guard selectedTarget != nil else {
        let names = fuzzTargets.map(\.name).joined(separator: ", ")
        let message = "WEBSERVICEKIT_FUZZ_TARGET must name a target (\(names)); got \(requested ?? "nothing")\n"
        FileHandle.standardError.write(Data(message.utf8))
        exit(2)
    }
    return 0
}

/// Called by libFuzzer for each input. A target reports a broken invariant with ``fuzzCheck(_:_:)``,
/// which crashes, so libFuzzer keeps the input as a crash artifact.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    selectedTarget?(bytes)
    return 0
}

/// Stops the run with `message` when `condition` is false: a finding, kept by libFuzzer.
func fuzzCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("fuzz invariant broken: \(message())") }
}
