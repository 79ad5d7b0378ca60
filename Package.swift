// swift-tools-version:6.0
// WebServiceKit has no package dependencies: Foundation, FoundationNetworking, FoundationXML and
// Dispatch only.
import PackageDescription

let package = Package(
    name: "WebServiceKit",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "WebServiceKit", targets: ["WebServiceKit"]),
        .library(name: "WebServiceKitTesting", targets: ["WebServiceKitTesting"]),
        .executable(name: "webservice-demo", targets: ["WebServiceDemo"]),
        .executable(name: "webservice-bench", targets: ["WebServiceKitBenchmarks"]),
        .library(name: "WebServiceGenKit", targets: ["WebServiceGenKit"]),
        .executable(name: "webservice-gen", targets: ["webservice-gen"]),
    ],
    targets: [
        .target(name: "WebServiceKit"),
        .target(name: "WebServiceKitTesting", dependencies: ["WebServiceKit"]),
        .executableTarget(name: "WebServiceDemo", dependencies: ["WebServiceKit"], path: "Samples/Demo"),
        .executableTarget(
            name: "WebServiceKitBenchmarks",
            dependencies: ["WebServiceKit", "WebServiceKitTesting"],
            path: "Benchmarks/WebServiceKitBenchmarks"),
        .testTarget(name: "WebServiceKitTests", dependencies: ["WebServiceKit", "WebServiceKitTesting"]),
        .testTarget(name: "WebServiceKitIntegrationTests", dependencies: ["WebServiceKit", "WebServiceKitTesting"]),
        // The IDL import tool: a Foundation-only library and a thin command-line front end.
        .target(name: "WebServiceGenKit"),
        .executableTarget(name: "webservice-gen", dependencies: ["WebServiceGenKit"]),
        .testTarget(name: "WebServiceGenKitTests", dependencies: ["WebServiceGenKit", "webservice-gen"]),
    ],
    swiftLanguageModes: [.v6]
)
