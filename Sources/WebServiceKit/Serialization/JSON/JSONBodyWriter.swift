import Foundation

/// The JSON of a request body, written straight into one buffer: the bytes `JSONEncoder` writes
/// with every setting at its default, at a fraction of its cost (about half of a small JSON POST's
/// instructions went to `JSONEncoder` on Linux).
///
/// The writer follows a value as it encodes, so it handles what encoding a value in order gives:
/// containers used one inside the other, a keyed container asked for twice by one value (a class
/// and its superclass), values that encode nothing (`{}` inside a container, as `JSONEncoder`).
/// Anything else — a key written twice in one object (`JSONEncoder` keeps the last value, moved to
/// the end), `superEncoder`, a container written to after a sibling was started, nesting deeper
/// than ``depthLimit``, a number JSON cannot carry, a value that throws — makes ``write(_:)``
/// answer `nil`, and ``JSONBodyEncoding`` asks `JSONEncoder` instead, so the bytes (or the error)
/// are always `JSONEncoder`'s. Differential tests and the `json-body` fuzz target hold it to that.
final class JSONBodyWriter {
    /// How deep values may nest before the writer leaves the value to `JSONEncoder`.
    static let depthLimit = 256
    /// The digits of a `\u00XX` escape, lowercase as `JSONEncoder` writes them.
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    // Only the encoding thread touches a writer, one access at a time: the run-time exclusivity
    // checks of a class's properties cost a fifth of the writer's time.
    @exclusivity(unchecked) private(set) var bytes: [UInt8] = []
    /// The containers being written, outermost first.
    @exclusivity(unchecked) private var open: [Container] = []
    /// The keys of the open objects, each object's after its ``Container/firstKey``.
    @exclusivity(unchecked) private var keys: [String] = []
    @exclusivity(unchecked) private var serials = 0
    /// The slot the next value goes into, if one waits.
    @exclusivity(unchecked) private var pending: ObjectIdentifier?
    /// Whether the value was encoded in a way this writer does not follow.
    @exclusivity(unchecked) private(set) var failed = false

    private struct Container {
        let serial: Int
        let isObject: Bool
        /// Where the object's keys start in ``JSONBodyWriter/keys``.
        let firstKey: Int
        var count = 0
        /// The keys again, for a quick look-up once an object has many.
        var keySet: Set<String>?
    }

    /// Objects with more members than this look their keys up in a set rather than in a list.
    private static let keyListLimit = 12

    /// The JSON of `value`, or `nil` when `JSONEncoder` must write it.
    static func write(_ value: some Encodable) -> [UInt8]? {
        let writer = JSONBodyWriter()
        writer.bytes.reserveCapacity(512)
        let top = JSONBodySlot(writer: writer, depth: 0, parent: nil, key: .none)
        do {
            try writer.write(value, into: top, isTopLevel: true)
        } catch {
            return nil
        }
        return writer.failed ? nil : writer.bytes
    }

    struct Unsupported: Error {}

    /// Marks the value as one for `JSONEncoder` and answers the error to throw.
    @discardableResult
    func fail() -> Unsupported {
        failed = true
        return Unsupported()
    }

    /// Marks the value as one for `JSONEncoder` and answers a slot that takes nothing: what a
    /// container method that cannot throw returns then.
    func failedSlot() -> JSONBodySlot {
        fail()
        return JSONBodySlot(writer: self, depth: -1, parent: nil, key: .none)
    }

    // MARK: Values

    /// Writes `value` into `slot`, the next position of the output.
    func write<T: Encodable>(_ value: T, into slot: JSONBodySlot, isTopLevel: Bool = false) throws {
        guard !failed, pending == nil || pending == ObjectIdentifier(slot), open.count == slot.depth else {
            throw fail()
        }
        if try writePrimitive(value) {
            slot.filled = .value
            pending = nil
            return
        }
        guard slot.depth < Self.depthLimit else { throw fail() }
        pending = ObjectIdentifier(slot)
        try value.encode(to: slot)
        guard !failed else { throw Unsupported() }
        switch slot.filled {
        case .none:
            // `JSONEncoder` refuses a top-level value that encodes nothing, and writes `{}` for one
            // inside a container.
            guard !isTopLevel, pending == ObjectIdentifier(slot) else { throw fail() }
            bytes.append(contentsOf: [0x7B, 0x7D])
            slot.filled = .value
            pending = nil
        case .container:
            close(downTo: slot.depth)
        case .value:
            break
        }
    }

    /// Writes `value` as the next member of container `serial` at `level` (under `key` in an
    /// object): a primitive at once, anything else through its own `encode(to:)`.
    func writeMember<T: Encodable>(
        _ value: T, of serial: Int?, at level: Int, key: String?, parent: JSONBodySlot, slotKey: () -> JSONBodySlot.Key
    ) throws {
        try beginMember(of: serial, at: level, key: key)
        if try writePrimitive(value) { return }
        try write(value, into: memberSlot(at: level, parent: parent, key: slotKey()))
    }

    /// Writes `value` if it is one of the types `JSONEncoder` writes itself.
    func writePrimitive<T: Encodable>(_ value: T) throws -> Bool {
        // Metatype identity, not `is`: a dynamic cast per value cost as much as `JSONEncoder`.
        let type = ObjectIdentifier(T.self)
        switch type {
        case ObjectIdentifier(String.self): writeString(unsafeBitCast(value, to: String.self))
        case ObjectIdentifier(Int.self): writeInteger(unsafeBitCast(value, to: Int.self))
        case ObjectIdentifier(Bool.self): writeASCII(unsafeBitCast(value, to: Bool.self) ? "true" : "false")
        case ObjectIdentifier(Double.self): try writeFloat(unsafeBitCast(value, to: Double.self))
        case ObjectIdentifier(Int64.self): writeInteger(unsafeBitCast(value, to: Int64.self))
        case ObjectIdentifier(Int32.self): writeInteger(unsafeBitCast(value, to: Int32.self))
        case ObjectIdentifier(UInt.self): writeInteger(unsafeBitCast(value, to: UInt.self))
        case ObjectIdentifier(UInt64.self): writeInteger(unsafeBitCast(value, to: UInt64.self))
        case ObjectIdentifier(Float.self): try writeFloat(unsafeBitCast(value, to: Float.self))
        case ObjectIdentifier(Int8.self): writeInteger(unsafeBitCast(value, to: Int8.self))
        case ObjectIdentifier(Int16.self): writeInteger(unsafeBitCast(value, to: Int16.self))
        case ObjectIdentifier(UInt8.self): writeInteger(unsafeBitCast(value, to: UInt8.self))
        case ObjectIdentifier(UInt16.self): writeInteger(unsafeBitCast(value, to: UInt16.self))
        case ObjectIdentifier(UInt32.self): writeInteger(unsafeBitCast(value, to: UInt32.self))
        // The four Foundation types `JSONEncoder` writes its own way at its default settings.
        case ObjectIdentifier(Date.self):
            try writeFloat(unsafeBitCast(value, to: Date.self).timeIntervalSinceReferenceDate)
        case ObjectIdentifier(Data.self): writeString(unsafeBitCast(value, to: Data.self).base64EncodedString())
        case ObjectIdentifier(URL.self): writeString(unsafeBitCast(value, to: URL.self).absoluteString)
        case ObjectIdentifier(Decimal.self):
            let decimal = unsafeBitCast(value, to: Decimal.self)
            guard !decimal.isNaN else { throw fail() }
            writeASCII(decimal.description)
        default: return false
        }
        return true
    }

    /// `null`, into a slot that waits.
    func writeNull(into slot: JSONBodySlot) throws {
        guard !failed, pending == ObjectIdentifier(slot), open.count == slot.depth, slot.filled == .none else {
            throw fail()
        }
        writeASCII("null")
        slot.filled = .value
        pending = nil
    }

    private func writeASCII(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private func writeInteger<I: FixedWidthInteger>(_ value: I) {
        if value == 0 { return bytes.append(0x30) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: every 64-bit integer
        var magnitude = value.magnitude
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude != 0 {
                let (quotient, remainder) = magnitude.quotientAndRemainder(dividingBy: 10)
                count += 1
                buffer[buffer.count - count] = 0x30 + UInt8(remainder)
                magnitude = quotient
            }
            if value < 0 { bytes.append(0x2D) }
            bytes.append(contentsOf: buffer[(buffer.count - count)...])
        }
    }

    /// A number as `JSONEncoder` writes it: its shortest description, without a trailing `.0`.
    private func writeFloat<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F) throws {
        guard value.isFinite else { throw fail() }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        writeASCII(text)
    }

    /// A string in quotes with `"`, `\`, `/` and the control characters escaped, as `JSONEncoder`.
    func writeString(_ string: String) {
        var string = string
        bytes.append(0x22)
        string.withUTF8 { utf8 in
            var start = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x2F else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                start = index + 1
                switch byte {
                case 0x22, 0x5C, 0x2F: bytes.append(contentsOf: [0x5C, byte])
                case 0x08: bytes.append(contentsOf: [0x5C, 0x62])
                case 0x0C: bytes.append(contentsOf: [0x5C, 0x66])
                case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
                case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
                case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
                default:
                    let hex = Self.hexDigits
                    bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(0x22)
    }

    // MARK: Containers

    /// Starts an object or an array in `slot`, or finds the one it holds (a value may ask for
    /// its keyed container twice); `nil` when the value cannot have it.
    func openContainer(in slot: JSONBodySlot, isObject: Bool) -> Int? {
        guard !failed else { return nil }
        switch slot.filled {
        case .none:
            guard pending == ObjectIdentifier(slot), open.count == slot.depth else { break }
            serials += 1
            open.append(Container(serial: serials, isObject: isObject, firstKey: keys.count))
            bytes.append(isObject ? 0x7B : 0x5B)
            slot.filled = .container(serials)
            pending = nil
            return serials
        case .container(let serial):
            guard isObject, enter(serial, at: slot.depth), open[slot.depth].isObject else { break }
            return serial
        case .value:
            break
        }
        fail()
        return nil
    }

    /// Makes the container `serial` at `level` the innermost one, closing those inside it;
    /// false when it was closed already (a sibling was written since).
    private func enter(_ serial: Int, at level: Int) -> Bool {
        guard !failed, pending == nil, level < open.count, open[level].serial == serial else { return false }
        close(downTo: level + 1)
        return true
    }

    /// Closes every container at `level` and deeper.
    private func close(downTo level: Int) {
        while open.count > level {
            let container = open.removeLast()
            bytes.append(container.isObject ? 0x7D : 0x5D)
            keys.removeSubrange(container.firstKey...)
        }
    }

    /// Writes the comma and, in an object, the key before the next member of container `serial`
    /// at `level`; its slot waits for the value.
    func beginMember(of serial: Int?, at level: Int, key: String?) throws {
        guard let serial, enter(serial, at: level) else { throw fail() }
        if let key { try insert(key, at: level) }
        if open[level].count > 0 { bytes.append(0x2C) }
        open[level].count += 1
        if let key {
            writeString(key)
            bytes.append(0x3A)
        }
    }

    /// Notes `key` as one of the object's at `level`; a key written twice is left to `JSONEncoder`.
    private func insert(_ key: String, at level: Int) throws {
        if open[level].keySet != nil {
            guard open[level].keySet?.insert(key).inserted == true else { throw fail() }
            return
        }
        let first = open[level].firstKey
        guard !keys[first...].contains(key) else { throw fail() }
        keys.append(key)
        if keys.count - first > Self.keyListLimit { open[level].keySet = Set(keys[first...]) }
    }

    /// The slot after ``beginMember(of:at:key:)``: where the member's value goes.
    func memberSlot(at level: Int, parent: JSONBodySlot, key: JSONBodySlot.Key) -> JSONBodySlot {
        let slot = JSONBodySlot(writer: self, depth: level + 1, parent: parent, key: key)
        pending = ObjectIdentifier(slot)
        return slot
    }

    /// The number of members container `serial` at `level` has.
    func count(of serial: Int?, at level: Int) -> Int {
        guard let serial, level < open.count, open[level].serial == serial else { return 0 }
        return open[level].count
    }
}
