/// One Server-Sent Event, as the WHATWG HTML standard's event stream interpretation dispatches it
/// (§9.2.6 "Interpreting an event stream"): what a browser's `EventSource` hands to its
/// listeners as a `MessageEvent`.
///
/// ```swift
/// for try await event in try await client.stream(.ticker) {
///     if event.type == "price" { print(event.data) }
/// }
/// ```
public struct ServerSentEvent: Equatable, Sendable {
    /// The event type: the last `event` field's value, `"message"` when there was none or it was
    /// empty (`MessageEvent.type`).
    public var type: String
    /// The `data` fields' values joined with LF (`MessageEvent.data`).
    public var data: String
    /// The last event ID when the event was dispatched: the last `id` field of the stream so far
    /// (of this event or an earlier one) without a NUL, empty when none
    /// (`MessageEvent.lastEventId`). A reconnecting stream sends it as `Last-Event-ID`.
    public var id: String
    /// The reconnection time, in milliseconds, that a valid `retry` field among this event's
    /// lines set; `nil` when none did.
    public var retry: Int?

    /// An event with these fields.
    public init(type: String = "message", data: String, id: String = "", retry: Int? = nil) {
        self.type = type
        self.data = data
        self.id = id
        self.retry = retry
    }
}
