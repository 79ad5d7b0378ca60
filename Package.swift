// swift-tools-version:6.0
// WebServiceKit has no package dependencies: Foundation, FoundationNetworking, FoundationXML,
// Dispatch and the C library (CWebServiceKitSystem only names C library headers Swift does not
// import by itself).
import PackageDescription

/// What the library's own tests link: the core, its three format products, and the test support.
let products: [Target.Dependency] = [
    "WebServiceKit", "WebServiceKitOData", "WebServiceKitJSONRPC", "WebServiceKitXML", "WebServiceKitTesting",
]

let package = Package(
    name: "WebServiceKit",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "WebServiceKit", targets: ["WebServiceKit"]),
        // OData, JSON-RPC and XML are products of their own, built on WebServiceKit's public API
        // only: an app that needs none of them imports (and links) none of them.
        .library(name: "WebServiceKitOData", targets: ["WebServiceKitOData"]),
        .library(name: "WebServiceKitJSONRPC", targets: ["WebServiceKitJSONRPC"]),
        .library(name: "WebServiceKitXML", targets: ["WebServiceKitXML"]),
        .library(name: "WebServiceKitTesting", targets: ["WebServiceKitTesting"]),
        .executable(name: "webservice-demo", targets: ["WebServiceDemo"]),
        .executable(name: "webservice-bench", targets: ["WebServiceKitBenchmarks"]),
        .library(name: "WebServiceGenKit", targets: ["WebServiceGenKit"]),
        .executable(name: "webservice-gen", targets: ["webservice-gen"]),
    ],
    targets: [
        .target(name: "WebServiceKit", dependencies: ["CWebServiceKitSystem"]),
        // epoll and eventfd for the event loop: headers of the C library the Swift overlay leaves out.
        .target(name: "CWebServiceKitSystem"),
        .target(name: "WebServiceKitOData", dependencies: ["WebServiceKit"]),
        .target(name: "WebServiceKitJSONRPC", dependencies: ["WebServiceKit"]),
        .target(name: "WebServiceKitXML", dependencies: ["WebServiceKit"]),
        .target(name: "WebServiceKitTesting", dependencies: ["WebServiceKit"]),
        .executableTarget(
            name: "WebServiceDemo", dependencies: ["WebServiceKit", "WebServiceKitOData", "WebServiceKitJSONRPC"],
            path: "Samples/Demo"),
        .executableTarget(
            name: "WebServiceKitBenchmarks",
            dependencies: [
                "WebServiceKit", "WebServiceKitOData", "WebServiceKitJSONRPC", "WebServiceKitTesting",
                "WebServiceGenKit", "WebServiceKitChaos",
            ],
            path: "Benchmarks/WebServiceKitBenchmarks"),
        .testTarget(name: "WebServiceKitTests", dependencies: products + ["WebServiceGenKit"]),
        .testTarget(name: "WebServiceKitIntegrationTests", dependencies: products + ["WebServiceKitChaos"]),
        // The chaos soak (Docs/Reliability.md): the integration tests run its short form, the
        // benchmark its long one.
        .target(name: "WebServiceKitChaos", dependencies: ["WebServiceKit"], path: "Tests/Chaos"),
        // The IDL import tool: a Foundation-only library and a thin command-line front end.
        .target(name: "WebServiceGenKit"),
        .executableTarget(name: "webservice-gen", dependencies: ["WebServiceGenKit"]),
        // Fixtures are read from the source tree (through #filePath), not bundled.
        .testTarget(
            name: "WebServiceGenKitTests", dependencies: ["WebServiceGenKit", "webservice-gen"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
