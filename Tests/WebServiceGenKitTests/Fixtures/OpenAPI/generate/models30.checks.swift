// The checks of models30.yaml's generated types (OpenAPIGeneratedCodeTests), after the round trips
// (`decode` and `written` come with the test's program).

// An enum value the document does not list is read, and written back as it was.
if let status = decode(Status.self, #""retired""#) { print("check status.unknown=\(status)") }
print(
    "check status.keywords=\([Status.default, Status.selfValue, Status.inReview].map { "\($0)" }.joined(separator: ","))"
)
if let priority = decode(Priority.self, "7") { print("check priority.unknown=\(priority)") }
print("check priority.raw=\(Priority.valueMinus1.rawValue)")

// A discriminator value no alternative has, and one that names an alternative.
if let pet = decode(Pet.self, #"{"kind":"bird","name":"Tweety"}"#), case .undocumented = pet {
    print("check pet.unknown=undocumented")
}
if let pet = decode(Pet.self, #"{"kind":"cat","name":"Tom","lives":9}"#), case .cat(let cat) = pet {
    print("check pet.cat=\(cat.name),\(cat.lives)")
}
if let shape = decode(Shape.self, #""text""#), case .string(let text) = shape { print("check shape.string=\(text)") }

// Keys that are keywords or clash once made Swift names.
if let names = decode(
    Names.self,
    #"{"default":"d","self":"s","user_id":1,"userId":2,"Type":"t","2fa":true,"additionalProperties":"a","other":"o"}"#)
{
    print(
        "check names=\(names.default ?? ""),\(names.selfValue ?? ""),\(names.userId ?? 0),\(names.userId2 ?? 0),"
            + "\(names.type ?? ""),\(names._2fa ?? false),\(names.additionalProperties2 ?? ""),\(names.additionalProperties)"
    )
}

// A recursive schema: a struct that holds its own type.
var node = Node(name: "a", next: Node(name: "b", next: Node(name: "c")))
var depth = 0
var cursor: Node? = node
while let current = cursor {
    depth += 1
    cursor = current.next
}
print("check node.depth=\(depth)")
node.next = nil

// date-time is a Date; a required nullable property is written as null; readOnly may be left out.
if let catalog = decode(
    Catalog.self,
    #"{"id":"8F5B7A8E-4C0B-4BD7-9D4C-1D1C1C1C1C1C","title":"t","status":"draft","created":"2024-03-01T12:30:00.250Z"}"#)
{
    print("check created=\(catalog.created.timeIntervalSince1970.rounded(.down))")
    print("check readOnly.omitted=\(catalog.revision == nil && !written(catalog).contains("revision"))")
}
if written(Catalog(id: UUID(), title: "t", status: .draft, created: Date())).contains(#""subtitle""#) {
    print("check requiredNullable=unexpected subtitle")
}
print("check requiredNullable=\(written(RequiredNullable(value: nil)).contains(#""value":null"#) ? "null" : "missing")")
print("check dataModel=\(DataModel(value: "v").value ?? "")")

// The document's operation against the validating server: its answer is Catalog's example,
// read into the generated types.
let client = WebServiceClient(
    serviceRoot: URL(string: ProcessInfo.processInfo.environment["OPENAPI_ROOT"] ?? "http://127.0.0.1:9/")!
        .appendingPathComponent("models30/"))
do {
    let catalog = try await client.perform(.getCatalog)
    print("call getCatalog \(catalog.title) \(catalog.pets?.count ?? 0) \(catalog.root?.children?.first?.name ?? "-")")
} catch {
    print("call getCatalog failed: \(error)")
}
