import WebServiceGenKit
import XCTest

/// Generates from in-memory files; `inputs` defaults to every file, in name order.
func generate(
    _ files: [String: String], inputs: [String]? = nil, options: GeneratorOptions = GeneratorOptions()
) throws(IDLError) -> String {
    try WebServiceGenerator(options: options, source: MemorySource(files)).generate(inputs ?? files.keys.sorted())
}

/// Loads in-memory files into the checked model.
func load(_ files: [String: String], inputs: [String]? = nil) throws(IDLError) -> IDLModule {
    try WebServiceGenerator(source: MemorySource(files)).load(inputs ?? files.keys.sorted())
}

/// The error generating `files` gives; fails the test when there is none.
func generationError(
    _ files: [String: String], inputs: [String]? = nil, file: StaticString = #filePath, line: UInt = #line
) -> IDLError? {
    do {
        _ = try generate(files, inputs: inputs)
        XCTFail("expected an error", file: file, line: line)
        return nil
    } catch {
        return error
    }
}

/// Checks that generating `files` fails with `message` at `line`:`column` of `path`.
func assertError(
    _ files: [String: String], inputs: [String]? = nil, _ path: String, _ line: Int, _ column: Int, _ message: String,
    file: StaticString = #filePath, testLine: UInt = #line
) {
    guard let error = generationError(files, inputs: inputs, file: file, line: testLine) else { return }
    XCTAssertEqual(
        error.description, "\(path):\(line):\(column): error: \(message)", file: file, line: testLine)
}

/// An ifacegen file with `items` in its `iface` array.
func iface(_ items: String) -> String { "{\"iface\": [\n\(items)\n]}" }
