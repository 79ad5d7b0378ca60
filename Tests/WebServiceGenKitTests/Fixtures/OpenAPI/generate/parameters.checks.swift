// The calls of parameters.yaml's generated client against the validating server
// (OpenAPIGeneratedCodeTests): each prints `call NAME …`; the server's log says whether
// openapi-core accepted what went on the wire.

let root = URL(string: ProcessInfo.processInfo.environment["OPENAPI_ROOT"] ?? "http://127.0.0.1:9/")!
let client = WebServiceClient(serviceRoot: root.appendingPathComponent("parameters/"))

func call(_ name: String, _ perform: () async throws -> Done) async {
    do {
        print("call \(name) ok=\(try await perform().ok)")
    } catch {
        print("call \(name) failed")
        print("error \(name): \(error)")
    }
}

await call("pathSimple") {
    try await client.perform(.pathSimple, 7, [1, 2], ["a b", "c"], Point(x: 1, y: 2), Point(x: 3, y: 4))
}
await call("pathLabel") { try await client.perform(.pathLabel, "rex", ["a", "b"], ["c", "d"]) }
await call("pathMatrix") { try await client.perform(.pathMatrix, "rex", ["a", "b"], ["c", "d"], Point(x: 5, y: 6)) }
await call("queryForm") {
    try await client.perform(
        .queryForm, "a&b=c d", 10, [1, 2], ["x", "y z"], Point(x: 1, y: 2), Date(timeIntervalSince1970: 0), .name2)
}
await call("queryForm.nils") { try await client.perform(.queryForm, "only", nil, nil, nil, nil, nil, nil) }
await call("queryFormObject") { try await client.perform(.queryFormObject, Filter(color: "red", size: 3)) }
await call("queryDelimited") { try await client.perform(.queryDelimited, ["a b", "c"], [1, 2, 3]) }
await call("queryDeepObject") { try await client.perform(.queryDeepObject, Filter(color: "blue", size: 4)) }
await call("queryReserved") { try await client.perform(.queryReserved, "/a/b?c:d", "/a/b?c:d") }
await call("headerSimple") {
    try await client.perform(
        .headerSimple, UUID(uuidString: "8F5B7A8E-4C0B-4BD7-9D4C-1D1C1C1C1C1C")!, ["a", "b"], Point(x: 1, y: 2))
}
await call("cookieForm") { try await client.perform(.cookieForm, "s1", "dark", [1, 2]) }
await call("cookieForm.nils") { try await client.perform(.cookieForm, "s1", nil, nil) }
