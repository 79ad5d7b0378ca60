import Foundation
import WebServiceKit
import WebServiceKitXML
import XCTest

/// A recursive type: `<Chain><next><next/></next></Chain>` is three levels.
private final class Chain: Codable, Sendable {
    let next: Chain?

    init(next: Chain?) { self.next = next }

    /// A chain of `levels` elements, the root included.
    static func of(levels: Int) -> Chain {
        var chain = Chain(next: nil)
        for _ in 1..<levels { chain = Chain(next: chain) }
        return chain
    }

    var levels: Int {
        var count = 1
        var node = self
        while let next = node.next {
            count += 1
            node = next
        }
        return count
    }
}

/// Deeply nested XML (issue 19 item 10): the parser builds the tree without recursion and stops at
/// ``XMLValueDecoder/maximumDepth`` with a typed error; the deepest accepted document decodes, and
/// the deepest accepted value encodes, on a small stack in this debug build.
final class XMLDepthTests: XCTestCase {
    /// `levels` nested elements: `<Chain><next>…</next></Chain>`.
    private static func document(levels: Int) -> Data {
        Data(
            ("<Chain>" + String(repeating: "<next>", count: levels - 1)
                + String(repeating: "</next>", count: levels - 1)
                + "</Chain>").utf8)
    }

    /// The description of the `dataCorrupted` error decoding `data` as `T` fails with.
    private static func corruption<T: Decodable>(_: T.Type, _ data: Data) -> String? {
        do {
            _ = try XMLValueDecoder().decode(T.self, from: data)
            return nil
        } catch DecodingError.dataCorrupted(let context) {
            return context.debugDescription
        } catch {
            return "\(error)"
        }
    }

    func testDefaultsAreTheDocumentedDepth() {
        XCTAssertEqual(XMLValueDecoder().maximumDepth, 128)
        XCTAssertEqual(XMLValueEncoder().maximumDepth, 128)
    }

    func testRecursiveTypeAtTheMaximumDepthDecodesAndEncodesOnASmallStack() async throws {
        let levels = XMLValueDecoder().maximumDepth
        let (decoded, encoded) = try await inTaskAndOnSmallStack {
            let chain = try XMLValueDecoder().decode(Chain.self, from: Self.document(levels: levels))
            let data = try XMLValueEncoder().encode(Chain.of(levels: levels))
            return (chain.levels, data)
        }
        XCTAssertEqual(decoded, levels)
        // The encoder writes an absent `next` as nothing and an empty one as `<next/>`.
        let text = String(decoding: encoded, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix(XMLValueEncoder.declaration + "<Chain><next><next>"), text)
        XCTAssertEqual(text.components(separatedBy: "<next>").count - 1, levels - 2)
    }

    func testOneLevelMoreIsDataCorruptedBeforeAnyValueIsDecoded() async throws {
        let levels = XMLValueDecoder().maximumDepth + 1
        let description = try await inTaskAndOnSmallStack { Self.corruption(Chain.self, Self.document(levels: levels)) }
        XCTAssertEqual(
            description,
            "The given data was not valid XML: elements nest deeper than the maximum depth of 128 at line 1, column \(7 + 6 * 128)."
        )
    }

    func testHostileNestingIsDataCorruptedWhateverTheType() async throws {
        struct Shallow: Decodable {}
        for levels in [100_000, 1_000_000] {
            let data = Self.document(levels: levels)
            let descriptions = try await inTaskAndOnSmallStack {
                [Self.corruption(Chain.self, data), Self.corruption(Shallow.self, data)]
            }
            for description in descriptions {
                XCTAssertTrue(
                    description?.contains("elements nest deeper than the maximum depth of 128") == true,
                    "\(levels) levels: \(description ?? "decoded")")
            }
        }
    }

    func testALowerLimitIsHonoured() async throws {
        var decoder = XMLValueDecoder()
        decoder.maximumDepth = 3
        XCTAssertEqual(try decoder.decode(Chain.self, from: Self.document(levels: 3)).levels, 3)
        XCTAssertThrowsError(try decoder.decode(Chain.self, from: Self.document(levels: 4)))
    }

    func testEncodingOneLevelMoreIsInvalidValue() async throws {
        let levels = XMLValueEncoder().maximumDepth + 1
        let failure = try await inTaskAndOnSmallStack { () -> String? in
            do {
                _ = try XMLValueEncoder().encode(Chain.of(levels: levels))
                return nil
            } catch EncodingError.invalidValue(_, let context) {
                return context.debugDescription
            } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(failure, "The value nests deeper than the maximum depth of 128.")
    }
}
