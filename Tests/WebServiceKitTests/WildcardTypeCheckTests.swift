import Foundation
import XCTest

@testable import WebServiceKit

/// The check a ``TypedCall`` makes of its declared types and the conversion of each value at a
/// call follow the same rules: for every sample value, its type is accepted exactly when the
/// value has a textual form (a `nil` has one: it drops its item).
final class WildcardTypeCheckTests: XCTestCase {
    private struct Opaque: Sendable {}
    private struct Custom: WildcardConvertible { var wildcardText: String { "c" } }
    private enum Raw: Int { case one = 1 }
    private enum RawText: String { case a }
    private enum RawOpaque: RawRepresentable {
        case a
        init?(rawValue: Data) { nil }
        var rawValue: Data { Data() }
    }

    func testTheTypeCheckAgreesWithTheConversionOfValues() {
        let samples: [Any] = [
            "s", Substring("s"), Character("c"), true, 1, Int8(1), UInt64(1), 1.5, Float(1.5), Decimal(1), UUID(),
            Date(), URL(string: "https://example.com")!, Custom(), Raw.one, RawText.a, RawOpaque.a,
            Optional("x") as Any,
            Optional(3) as Any, Optional(Opaque()) as Any, [1, 2], ["a"], [Optional(1)], [[1]], PreEncodedPath("a/b"),
            [PreEncodedPath("a")], Opaque(), [Opaque()], Data(), Optional(Optional(1)) as Any, [Raw.one],
            Optional([1]) as Any,
        ]
        var accepted = 0
        for sample in samples {
            let type = Swift.type(of: sample)
            let converts = WildcardConversion.value(of: sample) != nil
            XCTAssertEqual(WildcardConversion.accepts(type), converts, "\(type)")
            if converts { accepted += 1 }
        }
        XCTAssertEqual(accepted, 25, "the samples hold both kinds")
    }
}
