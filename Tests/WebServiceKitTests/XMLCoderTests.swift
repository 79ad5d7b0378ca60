import Foundation
import XCTest

@testable import WebServiceKit
@testable import WebServiceKitXML

final class XMLCoderTests: XCTestCase {
    // MARK: - Test types (nested so they cannot clash with other test files)

    struct Person: Codable, Equatable, XMLNodeKindProviding {
        let name: String  // attribute
        let city: String  // element

        static func xmlNodeKind(for key: any CodingKey) -> XMLNodeKind {
            key.stringValue == "name" ? .attribute : .element
        }
    }

    struct Price: Codable, Equatable, XMLNodeKindProviding {
        let currency: String
        let amount: Decimal

        static func xmlNodeKind(for key: any CodingKey) -> XMLNodeKind {
            key.stringValue == "currency" ? .attribute : .text
        }
    }

    struct Product: Codable, Equatable {
        let title: String
        let price: Price
        let tags: [String]
    }

    struct Note: Codable, Equatable, XMLNodeKindProviding {
        let label: String
        let body: String

        static func xmlNodeKind(for key: any CodingKey) -> XMLNodeKind {
            key.stringValue == "label" ? .attribute : .element
        }
    }

    struct Numbers: Codable, Equatable {
        let int: Int
        let int8: Int8
        let int16: Int16
        let int32: Int32
        let int64: Int64
        let uint: UInt
        let uint8: UInt8
        let uint16: UInt16
        let uint32: UInt32
        let uint64: UInt64

        static let minimums = Numbers(
            int: .min, int8: .min, int16: .min, int32: .min, int64: .min, uint: .min, uint8: .min, uint16: .min,
            uint32: .min, uint64: .min)
        static let maximums = Numbers(
            int: .max, int8: .max, int16: .max, int32: .max, int64: .max, uint: .max, uint8: .max, uint16: .max,
            uint32: .max, uint64: .max)
    }

    struct Floats: Codable {
        let double: Double
        let float: Float
    }

    struct Flags: Codable, Equatable {
        let on: Bool
        let off: Bool
    }

    struct Stamp: Codable, Equatable {
        let at: Date
    }

    struct Blob: Codable, Equatable {
        let data: Data
        let url: URL
        let id: UUID
    }

    struct Contact: Codable, Equatable {
        let name: String
        let email: String?
        let age: Int?
    }

    struct Address: Codable, Equatable {
        let street: String
        let zip: String
    }

    struct Customer: Codable, Equatable {
        let id: Int
        let address: Address
        let previous: [Address]
    }

    enum Color: String, Codable {
        case red, green
    }

    enum Level: Int, Codable {
        case low = 1
        case high = 3
    }

    struct Palette: Codable, Equatable {
        let color: Color
        let level: Level
    }

    struct Traveller: Codable, Equatable {
        let name: String
        let cities: [String]
    }

    struct Grid: Codable, Equatable {
        let rows: [[Int]]
    }

    struct Sparse: Codable, Equatable {
        let values: [Int?]
    }

    struct Settings: Codable, Equatable {
        let values: [String: Int]
    }

    struct Labelled: Codable, Equatable {
        let label: String
    }

    struct Item: Codable, Equatable {
        let id: Int
    }

    /// A value that can nest itself without bound.
    indirect enum Chain: Codable {
        case end
        case link(Chain)
    }

    /// A struct nesting itself through an array, for decoding depth tests.
    struct Tree: Codable {
        let children: [Tree]
    }

    // MARK: - Helpers

    private func xml<T: Encodable>(
        _ value: T, rootElement: String? = nil, encoder: XMLValueEncoder = XMLValueEncoder()
    ) throws -> String {
        String(decoding: try encoder.encode(value, rootElement: rootElement), as: UTF8.self)
    }

    private func decode<T: Decodable>(
        _ type: T.Type, _ xml: String, at path: [String] = [], decoder: XMLValueDecoder = XMLValueDecoder()
    ) throws -> T {
        try decoder.decode(type, from: Data(xml.utf8), at: path)
    }

    private func roundTrip<T: Codable & Equatable>(
        _ value: T, encoder: XMLValueEncoder = XMLValueEncoder(), decoder: XMLValueDecoder = XMLValueDecoder(),
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let data = try encoder.encode(value)
        let decoded = try decoder.decode(T.self, from: data)
        XCTAssertEqual(decoded, value, String(decoding: data, as: UTF8.self), file: file, line: line)
    }

    private func path(_ codingPath: [any CodingKey]) -> [String] { codingPath.map(\.stringValue) }

    private let declaration = #"<?xml version="1.0" encoding="UTF-8"?>"#

    // MARK: - The reference example

    func testPersonEncodesNameAsAttributeAndCityAsElementInCyrillic() throws {
        XCTAssertEqual(
            try xml(Person(name: "Иван", city: "Москва")),
            #"<?xml version="1.0" encoding="UTF-8"?><Person name="Иван"><city>Москва</city></Person>"#)
    }

    func testPersonDecodesFromTheExactEncodedDocument() throws {
        let document = #"<?xml version="1.0" encoding="UTF-8"?><Person name="Иван"><city>Москва</city></Person>"#
        XCTAssertEqual(try decode(Person.self, document), Person(name: "Иван", city: "Москва"))
        try roundTrip(Person(name: "Иван", city: "Москва"))
    }

    func testEncodedBytesAreUTF8WithoutCharacterReferences() throws {
        let data = try XMLValueEncoder().encode(Person(name: "Ж", city: "😀"))
        XCTAssertEqual(data, Data((declaration + #"<Person name="Ж"><city>😀</city></Person>"#).utf8))
        XCTAssertNotNil(data.firstRange(of: Data([0xD0, 0x96])))  // Ж
        XCTAssertNotNil(data.firstRange(of: Data([0xF0, 0x9F, 0x98, 0x80])))  // 😀
    }

    // MARK: - Document shape and options

    func testRootElementNameDefaultsToTypeNameAndCanBeOverridden() throws {
        XCTAssertEqual(try xml(Labelled(label: "x")), declaration + "<Labelled><label>x</label></Labelled>")
        XCTAssertEqual(try xml(Labelled(label: "x"), rootElement: "tag"), declaration + "<tag><label>x</label></tag>")
    }

    func testDeclarationCanBeOmitted() throws {
        var encoder = XMLValueEncoder()
        encoder.includesDeclaration = false
        XCTAssertEqual(try xml(Labelled(label: "x"), encoder: encoder), "<Labelled><label>x</label></Labelled>")
    }

    func testPrettyPrintedOutputIndentsOnlyBetweenElementsAndRoundTrips() throws {
        var encoder = XMLValueEncoder()
        encoder.prettyPrinted = true
        encoder.includesDeclaration = false
        let customer = Customer(id: 7, address: Address(street: " Main St ", zip: "1"), previous: [])
        XCTAssertEqual(
            try xml(customer, encoder: encoder),
            """
            <Customer>
                <id>7</id>
                <address>
                    <street> Main St </street>
                    <zip>1</zip>
                </address>
            </Customer>

            """)
        try roundTrip(customer, encoder: encoder)
    }

    func testEncodingAnExistentialUsesTheDynamicTypeName() throws {
        let value: any Encodable = Labelled(label: "a")
        let data = try XMLValueEncoder().encode(value)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), declaration + "<Labelled><label>a</label></Labelled>")
    }

    // MARK: - Strings, escaping, Unicode

    func testMarkupCharactersAreEscapedInTextAndAttributes() throws {
        let note = Note(label: #"a "b" 'c' <&>"#, body: #"x < y & z > "q" 'w'"#)
        XCTAssertEqual(
            try xml(note),
            declaration
                + #"<Note label="a &quot;b&quot; &apos;c&apos; &lt;&amp;&gt;">"#
                + #"<body>x &lt; y &amp; z &gt; "q" 'w'</body></Note>"#
        )
        try roundTrip(note)
    }

    func testLineBreaksAndTabsSurviveInAttributesAndText() throws {
        let note = Note(label: "tab\there\nline\r\nend", body: "a\r\nb\rc\n  ")
        let text = try xml(note)
        XCTAssertTrue(text.contains(#"label="tab&#9;here&#10;line&#13;&#10;end""#), text)
        XCTAssertTrue(text.contains("<body>a&#13;\nb&#13;c\n  </body>"), text)
        try roundTrip(note)
    }

    func testUnicodeAndEmojiRoundTrip() throws {
        try roundTrip(Note(label: "日本語 👩‍👩‍👧 é", body: "Ünïcödé ✓ 🇺🇦 \u{10FFFF} Привет"))
        try roundTrip(Traveller(name: "Åsa", cities: ["Москва", "北京", "🏙️"]))
    }

    func testCharactersXMLCannotCarryAreAnEncodingErrorWithPath() throws {
        XCTAssertThrowsError(try xml(Note(label: "ok", body: "bell\u{7}"))) { error in
            guard case EncodingError.invalidValue(_, let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path(context.codingPath), ["body"])
            XCTAssertTrue(context.debugDescription.contains("U+0007"), context.debugDescription)
        }
    }

    func testInvalidNamesAreAnEncodingError() throws {
        XCTAssertThrowsError(try xml(Settings(values: ["has space": 1]))) { error in
            guard case EncodingError.invalidValue(_, let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path(context.codingPath), ["values", "has space"])
        }
        XCTAssertThrowsError(try xml(Labelled(label: "x"), rootElement: "1root")) { error in
            guard case EncodingError.invalidValue = error else { return XCTFail("\(error)") }
        }
    }

    func testEmptyElementDecodesAsEmptyStringAndEmptyStringEncodesAsEmptyElement() throws {
        XCTAssertEqual(try decode(Labelled.self, "<Labelled><label/></Labelled>"), Labelled(label: ""))
        XCTAssertEqual(try xml(Labelled(label: "")), declaration + "<Labelled><label/></Labelled>")
    }

    func testCDATAAndEntitiesAreReadAsText() throws {
        let document = """
            <Note label="&#1055;&#x440;&#1080;&amp;"><body>&lt;b&gt; &amp; <![CDATA[<raw> & ]]]>&#x1F600;</body></Note>
            """
        XCTAssertEqual(try decode(Note.self, document), Note(label: "При&", body: "<b> & <raw> & ]😀"))
    }

    func testWhitespaceBetweenElementsIsIgnoredButKeptInsideStrings() throws {
        let document = """
            <Contact>
                <name>  Bob  </name>
                <age>
                    42
                </age>
            </Contact>
            """
        XCTAssertEqual(try decode(Contact.self, document), Contact(name: "  Bob  ", email: nil, age: 42))
        XCTAssertEqual(try decode(String.self, "<s>   </s>"), "   ")
        XCTAssertEqual(try decode(String.self, "<s><![CDATA[ ]]></s>"), " ")
    }

    // MARK: - Numbers, booleans and Foundation values

    func testAllIntegerTypesRoundTripAtTheirLimits() throws {
        try roundTrip(Numbers.minimums)
        try roundTrip(Numbers.maximums)
        XCTAssertTrue(try xml(Numbers.minimums).contains("<int64>-9223372036854775808</int64>"))
        XCTAssertTrue(try xml(Numbers.maximums).contains("<uint64>18446744073709551615</uint64>"))
    }

    func testFloatingPointValuesAndSpecialValues() throws {
        XCTAssertEqual(
            try xml(Floats(double: 0.1, float: 1.5)),
            declaration + "<Floats><double>0.1</double><float>1.5</float></Floats>")
        XCTAssertEqual(
            try xml(Floats(double: .infinity, float: -.infinity)),
            declaration + "<Floats><double>INF</double><float>-INF</float></Floats>")
        let nan = try decode(Floats.self, "<f><double>NaN</double><float> 2.5e3 </float></f>")
        XCTAssertTrue(nan.double.isNaN)
        XCTAssertEqual(nan.float, 2500)
        let precise = try decode(Floats.self, try xml(Floats(double: 1.0 / 3.0, float: .pi)))
        XCTAssertEqual(precise.double, 1.0 / 3.0)
        XCTAssertEqual(precise.float, .pi)
    }

    func testBoolsAreWrittenTrueFalseAndReadInXSDSpellings() throws {
        XCTAssertEqual(
            try xml(Flags(on: true, off: false)), declaration + "<Flags><on>true</on><off>false</off></Flags>")
        XCTAssertEqual(try decode(Flags.self, "<f><on> 1 </on><off>0</off></f>"), Flags(on: true, off: false))
        XCTAssertThrowsError(try decode(Flags.self, "<f><on>yes</on><off>0</off></f>")) { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path(context.codingPath), ["on"])
        }
    }

    func testDecimalIsWrittenAsDigitsAndRejectsGarbage() throws {
        let price = Price(currency: "EUR", amount: Decimal(string: "1234567890.123456789")!)
        XCTAssertTrue(try xml(price).contains(">1234567890.123456789</Price>"))
        try roundTrip(price)
        XCTAssertThrowsError(try decode(Decimal.self, "<d>12abc</d>")) { error in
            guard case DecodingError.typeMismatch = error else { return XCTFail("\(error)") }
        }
    }

    func testDatesUseISO8601ByDefaultAndTheOtherStrategies() throws {
        let date = Date(timeIntervalSince1970: 1_709_296_200)  // 2024-03-01T12:30:00Z
        XCTAssertEqual(try xml(Stamp(at: date)), declaration + "<Stamp><at>2024-03-01T12:30:00Z</at></Stamp>")
        try roundTrip(Stamp(at: date))
        XCTAssertEqual(try decode(Stamp.self, "<s><at>2024-03-01T14:30:00+02:00</at></s>").at, date)
        XCTAssertEqual(
            try decode(Stamp.self, "<s><at>2024-03-01T12:30:00.250Z</at></s>").at.timeIntervalSince1970,
            1_709_296_200.25, accuracy: 0.0001)

        var encoder = XMLValueEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        var decoder = XMLValueDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        XCTAssertEqual(try xml(Stamp(at: date), encoder: encoder), declaration + "<Stamp><at>1709296200</at></Stamp>")
        try roundTrip(Stamp(at: date.addingTimeInterval(0.5)), encoder: encoder, decoder: decoder)

        encoder.dateEncodingStrategy = .custom { _ in "custom" }
        decoder.dateDecodingStrategy = .custom { text in
            XCTAssertEqual(text, "custom")
            return date
        }
        XCTAssertEqual(
            try xml(Stamp(at: .distantPast), encoder: encoder), declaration + "<Stamp><at>custom</at></Stamp>")
        try roundTrip(Stamp(at: date), encoder: encoder, decoder: decoder)

        XCTAssertThrowsError(try decode(Stamp.self, "<s><at>yesterday</at></s>")) { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path(context.codingPath), ["at"])
        }
    }

    func testDataIsBase64AndURLAndUUIDAreText() throws {
        let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        let blob = Blob(data: Data([0, 1, 2, 255]), url: URL(string: "https://example.com/a?b=1&c=2")!, id: id)
        XCTAssertEqual(
            try xml(blob),
            declaration + "<Blob><data>AAEC/w==</data><url>https://example.com/a?b=1&amp;c=2</url>"
                + "<id>E621E1F8-C36C-495A-93FC-0C247A3E6E5F</id></Blob>")
        try roundTrip(blob)
        let wrapped = "<b><data>\n  AAEC\n  /w==\n</data><url>https://example.com/a?b=1&amp;c=2</url><id>\(id)</id></b>"
        XCTAssertEqual(try decode(Blob.self, wrapped), blob)
    }

    // MARK: - Optionals, nesting, enums

    func testNilOptionalsAreOmittedAndAbsentElementsDecodeAsNil() throws {
        let contact = Contact(name: "Ann", email: nil, age: nil)
        XCTAssertEqual(try xml(contact), declaration + "<Contact><name>Ann</name></Contact>")
        try roundTrip(contact)
        try roundTrip(Contact(name: "Ann", email: "a@b.c", age: 30))
        XCTAssertEqual(
            try decode(
                Contact.self,
                #"<c xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><name>A</name><age xsi:nil="true"/></c>"#),
            Contact(name: "A", email: nil, age: nil))
        // An undeclared xsi prefix is only a namespace warning for the parser.
        XCTAssertEqual(
            try decode(Contact.self, #"<c><name>A</name><email xsi:nil="true"/></c>"#),
            Contact(name: "A", email: nil, age: nil))
    }

    func testNestedStructsBecomeNestedElements() throws {
        let customer = Customer(
            id: 1, address: Address(street: "Main", zip: "10115"),
            previous: [Address(street: "Old", zip: "1"), Address(street: "Older", zip: "2")])
        XCTAssertEqual(
            try xml(customer),
            declaration + "<Customer><id>1</id><address><street>Main</street><zip>10115</zip></address>"
                + "<previous><street>Old</street><zip>1</zip></previous>"
                + "<previous><street>Older</street><zip>2</zip></previous></Customer>")
        try roundTrip(customer)
    }

    func testEnumsWithRawValuesUseTheirRawValue() throws {
        XCTAssertEqual(
            try xml(Palette(color: .green, level: .high)),
            declaration + "<Palette><color>green</color><level>3</level></Palette>")
        try roundTrip(Palette(color: .red, level: .low))
        XCTAssertThrowsError(try decode(Palette.self, "<p><color>blue</color><level>1</level></p>")) { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path(context.codingPath), ["color"])
        }
    }

    // MARK: - Attributes and text

    func testAttributeAndTextKindsProduceAPriceElement() throws {
        let price = Price(currency: "EUR", amount: Decimal(string: "12.50")!)
        XCTAssertEqual(try xml(price, rootElement: "price"), declaration + #"<price currency="EUR">12.5</price>"#)
        XCTAssertEqual(
            try decode(Price.self, #"<price currency="EUR">12.50</price>"#),
            Price(currency: "EUR", amount: Decimal(string: "12.5")!))
        let product = Product(title: "Tea", price: price, tags: ["green"])
        XCTAssertEqual(
            try xml(product),
            declaration + #"<Product><title>Tea</title><price currency="EUR">12.5</price><tags>green</tags></Product>"#)
        try roundTrip(product)
    }

    func testMissingAttributeIsKeyNotFound() throws {
        XCTAssertThrowsError(try decode(Person.self, "<Person><city>Tver</city><name>X</name></Person>")) { error in
            guard case DecodingError.keyNotFound(let key, let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(key.stringValue, "name")
            XCTAssertTrue(context.debugDescription.contains("attribute name"), context.debugDescription)
        }
    }

    func testNestedValueInAnAttributePositionIsAnEncodingError() throws {
        struct Bad: Encodable, XMLNodeKindProviding {
            let address: Address
            static func xmlNodeKind(for key: any CodingKey) -> XMLNodeKind { .attribute }
        }
        XCTAssertThrowsError(try xml(Bad(address: Address(street: "s", zip: "z")))) { error in
            guard case EncodingError.invalidValue(_, let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path(context.codingPath), ["address"])
        }
    }

    // MARK: - Arrays and dictionaries

    func testArrayPropertyRepeatsTheElementWithTheKeyName() throws {
        XCTAssertEqual(
            try xml(Traveller(name: "Ann", cities: ["a", "b"])),
            declaration + "<Traveller><name>Ann</name><cities>a</cities><cities>b</cities></Traveller>")
    }

    func testArraysWithZeroOneAndManyElementsRoundTrip() throws {
        XCTAssertEqual(try xml(Traveller(name: "N", cities: [])), declaration + "<Traveller><name>N</name></Traveller>")
        try roundTrip(Traveller(name: "N", cities: []))
        try roundTrip(Traveller(name: "N", cities: ["one"]))
        try roundTrip(Traveller(name: "N", cities: (0..<50).map { "c\($0)" }))
        let interleaved = "<t><cities>a</cities><name>N</name><cities>b</cities></t>"
        XCTAssertEqual(try decode(Traveller.self, interleaved), Traveller(name: "N", cities: ["a", "b"]))
    }

    func testTopLevelArrayUsesElementChildrenAndReadsAnyChildName() throws {
        XCTAssertEqual(
            try xml([1, 2, 3]),
            declaration + "<Array><element>1</element><element>2</element><element>3</element></Array>")
        XCTAssertEqual(
            try decode([Item].self, "<items><item><id>1</id></item><item><id>2</id></item></items>"),
            [
                Item(id: 1), Item(id: 2),
            ])
        XCTAssertEqual(try decode([String].self, "<none/>"), [])
    }

    func testNestedArraysAndNilItemsRoundTrip() throws {
        let grid = Grid(rows: [[1, 2], [], [3]])
        XCTAssertEqual(
            try xml(grid),
            declaration + "<Grid><rows><element>1</element><element>2</element></rows><rows/>"
                + "<rows><element>3</element></rows></Grid>")
        try roundTrip(grid)
        let sparse = Sparse(values: [1, nil, 3])
        XCTAssertTrue(
            try xml(sparse).contains(
                #"<values xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="true"/>"#))
        try roundTrip(sparse)
    }

    func testDictionaryEntriesBecomeElementsNamedByKey() throws {
        XCTAssertEqual(
            try xml(Settings(values: ["volume": 7])),
            declaration + "<Settings><values><volume>7</volume></values></Settings>")
        try roundTrip(Settings(values: ["a": 1, "b": 2, "c": 3]))
        XCTAssertEqual(try decode([String: String].self, "<d><x>1</x><y>2</y></d>"), ["x": "1", "y": "2"])
    }

    // MARK: - Path descent

    func testDecodingAtAPathDescendsIntoElements() throws {
        let document = """
            <response>
              <status>ok</status>
              <result><count> 2 </count><items><item><id>1</id></item><item><id>2</id></item></items></result>
            </response>
            """
        XCTAssertEqual(try decode(Int.self, document, at: ["result", "count"]), 2)
        XCTAssertEqual(try decode([Item].self, document, at: ["result", "items", "item"]), [Item(id: 1), Item(id: 2)])
        XCTAssertEqual(try decode(Item.self, document, at: ["result", "items", "item"]), Item(id: 1))
        XCTAssertEqual(try decode(String.self, document, at: ["status"]), "ok")
        XCTAssertEqual(try decode([Item].self, document, at: ["result", "items", "other"]), [])
        XCTAssertNil(try decode(String?.self, document, at: ["missing"]))
    }

    func testMissingPathStepIsKeyNotFoundWithTheStepsTaken() throws {
        let document = "<response><result><count>2</count></result></response>"
        XCTAssertThrowsError(try decode(Int.self, document, at: ["result", "items", "count"])) { error in
            guard case DecodingError.keyNotFound(let key, let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(key.stringValue, "items")
            XCTAssertEqual(path(context.codingPath), ["result"])
            XCTAssertTrue(context.debugDescription.contains("/response/result"), context.debugDescription)
        }
    }

    // MARK: - Errors

    func testMalformedXMLReportsLineAndColumn() throws {
        XCTAssertThrowsError(try decode(Labelled.self, "<Labelled>\n  <label>x</lable>\n</Labelled>")) { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(context.debugDescription.contains("line 2"), context.debugDescription)
            XCTAssertTrue(
                context.debugDescription.contains("end tag does not match start tag"), context.debugDescription)
            XCTAssertTrue(context.debugDescription.contains("column"), context.debugDescription)
            XCTAssertNotNil(context.underlyingError)
        }
        for broken in ["", "   ", "not xml", "<a>", "<a></b>", "<a x='1' x='2'/>", "<a>&undefined;</a>", "<a/><b/>"] {
            XCTAssertThrowsError(try decode(String.self, broken), broken) { error in
                guard case DecodingError.dataCorrupted = error else { return XCTFail("\(broken): \(error)") }
            }
        }
    }

    func testWrongTypeIsTypeMismatchWithCodingPath() throws {
        XCTAssertThrowsError(
            try decode(
                Customer.self,
                "<c><id>1</id><address><street>s</street><zip>z</zip></address>"
                    + "<previous><street>s</street><zip><a/></zip></previous></c>"
            )
        ) { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path(context.codingPath), ["previous", "Index 0", "zip"])
        }
        XCTAssertThrowsError(try decode(Item.self, "<i><id>seven</id></i>")) { error in
            guard case DecodingError.typeMismatch(let type, let context) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(type == Int.self)
            XCTAssertEqual(path(context.codingPath), ["id"])
        }
    }

    func testNumbersOutOfRangeAreDataCorrupted() throws {
        struct Small: Decodable { let value: UInt8 }
        struct Single: Decodable { let value: Float }
        for document in ["<s><value>256</value></s>", "<s><value>-1</value></s>"] {
            XCTAssertThrowsError(try decode(Small.self, document)) { error in
                guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(path(context.codingPath), ["value"])
            }
        }
        XCTAssertThrowsError(try decode(Int64.self, "<n>9223372036854775808</n>"))
        XCTAssertThrowsError(try decode(Single.self, "<s><value>1e60</value></s>")) { error in
            guard case DecodingError.dataCorrupted = error else { return XCTFail("\(error)") }
        }
    }

    func testMissingElementIsKeyNotFound() throws {
        XCTAssertThrowsError(try decode(Address.self, "<a><street>s</street></a>")) { error in
            guard case DecodingError.keyNotFound(let key, let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(key.stringValue, "zip")
            XCTAssertEqual(path(context.codingPath), [])
        }
        XCTAssertThrowsError(try decode(Customer.self, "<c><id>1</id><address><street>s</street></address></c>")) {
            error in
            guard case DecodingError.keyNotFound(let key, let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(key.stringValue, "zip")
            XCTAssertEqual(path(context.codingPath), ["address"])
        }
    }

    func testDeepNestingIsRejectedWithoutCrashing() throws {
        let depth = 100_000
        let document = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        XCTAssertThrowsError(try decode(Tree.self, document)) { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(context.debugDescription.contains("maximum depth of 128"), context.debugDescription)
        }
        // Just inside the limit, the recursive decoding works.
        let allowed = String(repeating: "<children>", count: 127) + String(repeating: "</children>", count: 127)
        var tree = try decode(Tree.self, "<Tree>" + allowed + "</Tree>")
        var levels = 0
        while let child = tree.children.first {
            tree = child
            levels += 1
        }
        XCTAssertEqual(levels, 127)
    }

    func testDeeplyNestedValuesAreAnEncodingError() throws {
        var chain = Chain.end
        for _ in 0..<10_000 { chain = .link(chain) }
        XCTAssertThrowsError(try xml(chain)) { error in
            guard case EncodingError.invalidValue(_, let context) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(context.debugDescription.contains("maximum depth"), context.debugDescription)
        }
    }

    func testScalarExpectedButElementHasChildrenIsTypeMismatch() throws {
        XCTAssertThrowsError(try decode(Labelled.self, "<l><label><b>bold</b></label></l>")) { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path(context.codingPath), ["label"])
        }
    }

    func testExternalEntitiesAreNeverLoadedAndEntityBombsFail() throws {
        let external = """
            <?xml version="1.0"?><!DOCTYPE s [<!ENTITY e SYSTEM "file:///etc/passwd">]><s>[&e;]</s>
            """
        let text = try? decode(String.self, external)
        XCTAssertFalse(text?.contains("root:") ?? false, text ?? "")
        let laughs = (1...9).map { level in
            "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">"
        }
        let bomb = "<?xml version=\"1.0\"?><!DOCTYPE s [<!ENTITY l0 \"lol\">" + laughs.joined() + "]><s>&l9;</s>"
        let start = Date()
        XCTAssertThrowsError(try decode(String.self, bomb))
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }

    func testLargeDocumentsDecode() throws {
        let items = (0..<20_000).map { Item(id: $0) }
        let data = try XMLValueEncoder().encode(items)
        XCTAssertGreaterThan(data.count, 400_000)
        XCTAssertEqual(try XMLValueDecoder().decode([Item].self, from: data), items)
        let long = String(repeating: "абв", count: 500_000)
        try roundTrip(Labelled(label: long))
    }
}
