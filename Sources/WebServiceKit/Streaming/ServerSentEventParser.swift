import Foundation

/// Parses a `text/event-stream` body, fed in pieces of any size, into ``ServerSentEvent``s,
/// following WHATWG HTML §9.2.6:
///
/// - the stream is UTF-8, decoded with replacement (U+FFFD for each maximal invalid subpart); one
///   leading BOM is stripped;
/// - lines end at CRLF, LF or a lone CR (``LineSplitter``);
/// - a line starting with `:` is a comment; a line without `:` is a field name with an empty value;
///   otherwise the name is what precedes the first `:` and the value what follows, less one leading space;
/// - `event` sets the event type, `data` appends its value and an LF to the data buffer, `id`
///   sets the last event ID buffer unless the value contains NUL, `retry` sets the reconnection time
///   when the value is ASCII digits only; other names are ignored;
/// - an empty line dispatches: the last event ID is updated first (also when no event follows);
///   with an empty data buffer no event is dispatched; otherwise its final LF is removed and the
///   event delivered with type `message` when none was set;
/// - an event not ended by an empty line when the stream ends is discarded.
///
/// Memory is bounded: a line longer than `maximumLineLength` bytes and an event whose data grows
/// past `maximumDataSize` bytes of UTF-8 are typed errors (``StreamParseError``).
struct ServerSentEventParser: Sendable {
    /// The largest data of one event accepted, in bytes of UTF-8 (after decoding).
    let maximumDataSize: Int

    /// The last event ID: updated each time an empty line is reached (WHATWG "dispatch the event",
    /// step 1), also when no event is dispatched. A reconnecting client sends it as `Last-Event-ID`.
    private(set) var lastEventID = ""
    /// The reconnection time, in milliseconds, set by the last valid `retry` field; `nil` when none.
    /// A value past `Int.max` is `Int.max`.
    private(set) var reconnectionTime: Int?

    private var lines: LineSplitter
    /// The stream's first bytes while they may still be a BOM (EF BB BF); `nil` once decided.
    private var start: [UInt8]? = []
    private var eventType = ""
    /// The last `event` value decoded, and its bytes: streams repeat a few types, which are then
    /// not decoded again.
    private var knownType: (bytes: [UInt8], type: String) = ([], "")
    private var data = ""
    private var hasData = false
    private var lastEventIDBuffer = ""
    private var retry: Int?

    /// A parser that accepts lines of at most `maximumLineLength` bytes and events of at most
    /// `maximumDataSize` bytes of data.
    init(maximumLineLength: Int = 1 << 20, maximumDataSize: Int = 16 << 20) {
        self.maximumDataSize = max(0, maximumDataSize)
        lines = LineSplitter(maximumLineLength: maximumLineLength, splitsAtLoneCR: true)
    }

    /// Starts the stream of a new connection (a reconnection, WHATWG HTML §9.2.3): lines, the BOM
    /// and the event being built start over; the last event ID and the reconnection time stay.
    mutating func restart() {
        lines = LineSplitter(maximumLineLength: lines.maximumLineLength, splitsAtLoneCR: true)
        start = []
        eventType = ""
        data = ""
        hasData = false
        retry = nil
        lastEventIDBuffer = lastEventID
    }

    /// Takes the next piece of the stream and returns the events it completes, in order.
    mutating func append(_ bytes: some Collection<UInt8>) throws(StreamParseError) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        try append(bytes, into: &events)
        return events
    }

    /// Takes the next piece of the stream and appends the events it completes to `events`, in
    /// order: on an error, the events completed before it in the piece are there.
    mutating func append(_ bytes: some Collection<UInt8>, into events: inout [ServerSentEvent])
        throws(StreamParseError)
    {
        guard var pending = start else { return try interpret(bytes, into: &events) }
        // WHATWG Encoding "UTF-8 decode": a BOM at the very start is removed, once. It may arrive
        // split across pieces, so the first three bytes are held until they show whether it is one.
        pending.append(contentsOf: bytes.prefix(3))
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        if pending.count < 3, bom.starts(with: pending) {
            start = pending
            return
        }
        start = nil
        let rest = bytes.dropFirst(min(3, bytes.count))
        let head = pending.starts(with: bom) ? Array(pending.dropFirst(3)) : pending
        try interpret(head + rest, into: &events)
    }

    /// Ends the stream. An event not ended by an empty line is discarded (WHATWG: "If the file ends
    /// in the middle of an event, before the final empty line, the incomplete event is not
    /// dispatched"), and so is a last line without a line end, which cannot end an event.
    mutating func finish() throws(StreamParseError) {
        if let pending = start {
            start = nil
            var ignored: [ServerSentEvent] = []
            try interpret(pending, into: &ignored)
        }
        _ = try lines.finish(allowingUnterminatedLine: true)
        eventType = ""
        data = ""
        hasData = false
        retry = nil
    }

    /// Splits `bytes` into lines and interprets each as soon as it ends, so that an error comes at
    /// the same byte however the stream was cut.
    private mutating func interpret(_ bytes: some Sequence<UInt8>, into events: inout [ServerSentEvent])
        throws(StreamParseError)
    {
        // The splitter is moved out while it calls back into `self`, and its buffer stays uniquely
        // referenced (a copy would be copied on write at every piece).
        var splitter = lines
        lines = LineSplitter(maximumLineLength: 0, splitsAtLoneCR: true)
        defer { lines = splitter }
        try splitter.scan(bytes) { (line) throws(StreamParseError) in
            if let event = try interpret(line: line) { events.append(event) }
        }
    }

    /// The fields the parser acts on, told apart by their bytes. A name with invalid UTF-8 decodes
    /// to U+FFFD, which none of these contain, so comparing bytes agrees with comparing the
    /// decoded names as the standard does.
    private enum Field {
        case event, data, id, retry, other

        init(_ name: UnsafeBufferPointer<UInt8>) {
            switch name.count {
            case 2: self = Self.is(name, "id") ? .id : .other
            case 4: self = Self.is(name, "data") ? .data : .other
            case 5: self = Self.is(name, "event") ? .event : Self.is(name, "retry") ? .retry : .other
            default: self = .other
            }
        }

        /// Whether `name` holds the bytes of `literal`.
        private static func `is`(_ name: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
            same(name, UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
        }
    }

    /// One line, without its line end (valid only during the call).
    private mutating func interpret(line: UnsafeBufferPointer<UInt8>) throws(StreamParseError) -> ServerSentEvent? {
        guard let first = line.first else { return dispatch() }
        if first == UInt8(ascii: ":") { return nil }
        let name: UnsafeBufferPointer<UInt8>
        var value: UnsafeBufferPointer<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            name = UnsafeBufferPointer(rebasing: line[..<colon])
            value = UnsafeBufferPointer(rebasing: line[(colon + 1)...])
            if value.first == UInt8(ascii: " ") { value = UnsafeBufferPointer(rebasing: value.dropFirst()) }
        } else {
            name = line
            value = UnsafeBufferPointer(start: nil, count: 0)
        }
        switch Field(name) {
        case .event:
            let known = knownType.bytes.withUnsafeBufferPointer { Self.same($0, value) }
            if !known { knownType = (Array(value), String(decoding: value, as: UTF8.self)) }
            eventType = knownType.type
        case .data:
            let text = String(decoding: value, as: UTF8.self)
            let size = data.utf8.count + (hasData ? 1 : 0) + text.utf8.count
            guard size <= maximumDataSize else { throw StreamParseError.eventTooLarge(limit: maximumDataSize) }
            if hasData {
                data.append("\n")
                data.append(text)
            } else {
                // The usual event has one data line: its text is the data, not copied into it.
                data = text
            }
            hasData = true
        case .id:
            if !value.contains(0) { lastEventIDBuffer = String(decoding: value, as: UTF8.self) }
        case .retry:
            if !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }) {
                let time = Self.decimal(value)
                retry = time
                reconnectionTime = time
            }
        case .other:
            break
        }
        return nil
    }

    /// WHATWG "dispatch the event", at an empty line.
    private mutating func dispatch() -> ServerSentEvent? {
        lastEventID = lastEventIDBuffer
        defer {
            eventType = ""
            data = ""
            hasData = false
            retry = nil
        }
        guard hasData else { return nil }
        return ServerSentEvent(
            type: eventType.isEmpty ? "message" : eventType, data: data, id: lastEventID, retry: retry)
    }

    /// Whether `a` and `b` hold the same bytes.
    private static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let left = a.baseAddress, let right = b.baseAddress else { return true }  // both empty
        return memcmp(left, right, a.count) == 0
    }

    /// ASCII digits as a number, `Int.max` when it does not fit.
    private static func decimal(_ digits: UnsafeBufferPointer<UInt8>) -> Int {
        var value = 0
        for digit in digits {
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(Int(digit - 0x30))
            if overflowTimes || overflowSum { return .max }
            value = sum
        }
        return value
    }
}
