import Foundation
import WebServiceKit
import WebServiceKitOData
import XCTest

/// Literal formatting (OData 4.01 Part 2 §5.1.1.6.1 and the ABNF `primitiveLiteral`) and the
/// pre-v4 forms, one assertion per case.
final class ODataLiteralTests: XCTestCase {
    private func text(_ value: some ODataLiteralConvertible, _ version: ODataVersion = .v401) throws -> String {
        try value.odataLiteral.text(for: version)
    }

    func testStrings() throws {
        XCTAssertEqual(try text("Paul"), "'Paul'")
        XCTAssertEqual(try text("Baker's Dozen"), "'Baker''s Dozen'")
        XCTAssertEqual(try text("''"), "''''''")
        XCTAssertEqual(try text(""), "''")
        XCTAssertEqual(try text("Zoë"), "'Zoë'")
        XCTAssertEqual(try text("a&b#c%d+e"), "'a&b#c%d+e'", "escaping is the URL writer's job, done once")
        XCTAssertEqual(try text("Paul"[...]), "'Paul'")
    }

    func testNumbers() throws {
        XCTAssertEqual(try text(42), "42")
        XCTAssertEqual(try text(-7), "-7")
        XCTAssertEqual(try text(Int64.max), "9223372036854775807")
        XCTAssertEqual(try text(Int64.max, .v2), "9223372036854775807L", "Int64 needs its suffix before v4")
        XCTAssertEqual(try text(Int32.max, .v2), "2147483647", "Int32 range needs none")
        XCTAssertEqual(try text(UInt8(200)), "200")
        XCTAssertEqual(try text(Decimal(string: "19.99")!), "19.99")
        XCTAssertEqual(try text(Decimal(string: "-0.001")!), "-0.001")
        XCTAssertEqual(try text(Decimal(string: "19.99")!, .v2), "19.99M")
        XCTAssertThrowsError(try text(Decimal.nan))
        XCTAssertEqual(try text(4.5), "4.5")
        XCTAssertEqual(try text(1e100), "1e+100")
        XCTAssertEqual(try text(0.1), "0.1")
        XCTAssertEqual(try text(Double.infinity), "INF")
        XCTAssertEqual(try text(-Double.infinity), "-INF")
        XCTAssertEqual(try text(Double.nan), "NaN")
        XCTAssertEqual(try text(4.5, .v2), "4.5d")
        XCTAssertEqual(try text(Float(1.5)), "1.5")
        XCTAssertEqual(try text(Float(1.5), .v3), "1.5f")
    }

    func testBooleanAndNull() throws {
        XCTAssertEqual(try text(true), "true")
        XCTAssertEqual(try text(false), "false")
        XCTAssertEqual(try text(ODataLiteral.null), "null")
        XCTAssertEqual(try text(String?.none), "null")
        XCTAssertEqual(try text(String?.some("x")), "'x'")
    }

    func testDatesAndTimes() throws {
        XCTAssertEqual(try text(ODataDate(year: 2021, month: 11, day: 30)), "2021-11-30")
        XCTAssertEqual(try text(ODataDate(year: 2021, month: 11, day: 30), .v2), "datetime'2021-11-30T00:00'")
        XCTAssertThrowsError(try text(ODataDate(year: 2021, month: 13, day: 1)))
        XCTAssertThrowsError(try text(ODataDate(year: 2021, month: 2, day: 30)))
        let instant = Date(timeIntervalSince1970: 1_707_908_400)  // 2024-02-14T11:00:00Z
        XCTAssertEqual(try text(instant), "2024-02-14T11:00:00Z")
        XCTAssertEqual(try text(instant.addingTimeInterval(0.25)), "2024-02-14T11:00:00.25Z")
        XCTAssertEqual(try text(instant, .v2), "datetime'2024-02-14T11:00:00'")
        XCTAssertEqual(try text(ODataTimeOfDay(hour: 13, minute: 5)), "13:05:00")
        XCTAssertEqual(try text(ODataTimeOfDay(hour: 13, minute: 5, second: 9, nanosecond: 500_000_000)), "13:05:09.5")
        XCTAssertEqual(try text(ODataTimeOfDay(hour: 13, minute: 5), .v3), "time'PT13H5M0S'")
        XCTAssertThrowsError(try text(ODataTimeOfDay(hour: 24, minute: 0)))
        XCTAssertEqual(try text(ODataDuration(days: 1, hours: 2, minutes: 30)), "duration'P1DT2H30M'")
        XCTAssertEqual(try text(ODataDuration(seconds: 0)), "duration'PT0S'")
        XCTAssertEqual(try text(ODataDuration(seconds: Decimal(string: "-90.5")!)), "duration'-PT1M30.5S'")
        XCTAssertEqual(try text(ODataDuration(days: 2)), "duration'P2D'")
        XCTAssertEqual(try text(ODataDuration(hours: 1), .v2), "time'PT1H'")
    }

    func testGuidEnumBinaryRaw() throws {
        let uuid = UUID(uuidString: "0A1B2C3D-0000-4000-8000-000000000003")!
        XCTAssertEqual(try text(uuid), "0a1b2c3d-0000-4000-8000-000000000003")
        XCTAssertEqual(try text(uuid, .v2), "guid'0a1b2c3d-0000-4000-8000-000000000003'")
        XCTAssertEqual(try text(ODataEnumMember("Demo.Color", "Red")), "Demo.Color'Red'")
        XCTAssertEqual(try text(ODataEnumMember("Demo.Color", "Red", "Blue")), "Demo.Color'Red,Blue'")
        XCTAssertThrowsError(try text(ODataEnumMember("Color", "Red")), "the type name must be qualified")
        XCTAssertThrowsError(try text(ODataEnumMember("Demo.Color", "Red'")))
        XCTAssertThrowsError(try text(ODataEnumMember("Demo.Color", "Red"), .v3)) { error in
            XCTAssertEqual(error as? ODataQueryError, .unsupported("an enumeration literal", version: .v3))
        }
        XCTAssertEqual(try text(Data([0xFB, 0xFF, 0x01])), "binary'-_8B'", "base64url without padding")
        XCTAssertEqual(try text(Data([0xFB, 0xFF])), "binary'-_8'")
        XCTAssertEqual(try text(Data([0xFB, 0xFF]), .v2), "binary'FBFF'")
        XCTAssertEqual(try text(ODataLiteral.raw("geography'POINT(1 2)'")), "geography'POINT(1 2)'")
    }
}
