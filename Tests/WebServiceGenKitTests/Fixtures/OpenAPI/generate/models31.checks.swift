// The checks of models31.yaml's generated types (OpenAPIGeneratedCodeTests), after the round trips
// (`decode` and `written` come with the test's program).

// Type arrays with "null": required and nullable properties are written as null.
let event = Event(kind: "event", at: nil, level: .warn)
print("check event.nulls=\(written(event).contains(#""at":null"#))")
// Several types: any JSON value.
if let decoded = decode(Event.self, #"{"kind":"event","at":null,"level":"info","payload":[1]}"#) {
    print("check payload=\(decoded.payload.map { "\($0)" } ?? "none")")
}
// A nullable enum reads null as nil, and an unlisted value as undocumented.
if let decoded = decode(Event.self, #"{"kind":"event","at":null,"level":null}"#) {
    print("check level.null=\(decoded.level == nil)")
}
if let level = decode(Level.self, #""debug""#) { print("check level.unknown=\(level)") }
// A recursive union (an indirect enum).
if let expression = decode(Expression.self, #"{"op":"add","left":{"value":1},"right":{"value":2}}"#),
    case .sum(let sum) = expression, case .literal(let left) = sum.left
{
    print("check expression.left=\(left.value)")
}
// A $ref to a $defs schema of another schema.
print("check window=\(Window(from: 1, to: 2).to ?? 0)")

// The document's operation against the validating server.
let client = WebServiceClient(
    serviceRoot: URL(string: ProcessInfo.processInfo.environment["OPENAPI_ROOT"] ?? "http://127.0.0.1:9/")!
        .appendingPathComponent("models31/"))
do {
    print("call listEvents \(try await client.perform(.listEvents).count)")
} catch {
    print("call listEvents failed: \(error)")
}
