import Foundation
import XCTest

/// The stack size of a Task's thread on Apple platforms: 512 KiB.
///
/// On Linux a Task runs on a thread with the default 8 MiB stack, so a test run in a Task alone
/// would not notice recursion that overflows on an iPhone; ``inTaskAndOnSmallStack(_:)`` runs the
/// code on a thread this small as well.
let smallStackSize = 512 * 1024

/// Runs `body` in a detached Task and then on a thread with a ``smallStackSize`` stack, and returns
/// what the second run returned. A recursion that grows with the input crashes the test process
/// here instead of passing.
func inTaskAndOnSmallStack<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    _ = try await Task.detached { try body() }.value
    return try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = smallStackSize
        thread.start()
    }
}

/// Asserts that `actual` is `expected`, naming the first difference rather than printing texts that
/// may be megabytes long.
func assertSameText(_ actual: String?, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
    guard let actual else { return XCTFail("no text", file: file, line: line) }
    guard actual != expected else { return }
    let common = zip(actual.utf8, expected.utf8).prefix { $0 == $1 }.count
    let context = { (text: String) in
        String(decoding: text.utf8.dropFirst(max(common - 40, 0)).prefix(80), as: UTF8.self)
    }
    XCTFail(
        "texts differ at UTF-8 offset \(common) of \(actual.utf8.count) (expected \(expected.utf8.count)): "
            + "\(context(actual)) instead of \(context(expected))", file: file, line: line)
}
