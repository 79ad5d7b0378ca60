// The calls of petstore.yaml's generated client against the validating server
// (OpenAPIGeneratedCodeTests): the demo's document, every operation once.

let root = URL(string: ProcessInfo.processInfo.environment["OPENAPI_ROOT"] ?? "http://127.0.0.1:9/")!
    .appendingPathComponent("petstore/")
let client = WebServiceClient(serviceRoot: root)
var security = Security(origin: root)
security.apiKey = "demo-key"
client.authenticationProvider = security

do {
    print("call listPets count=\(try await client.perform(.listPets, 10, .available, ["dog"]).count)")
    let created = try await client.perform(.createPet, body: NewPet(name: "Rex", tags: ["dog"], status: .available))
    print("call createPet \(created.id) \(created.name) \(created.status)")
    print("call showPetById \(try await client.perform(.showPetById, created.id).name)")
    _ = try await client.perform(.deletePet, created.id)
    print("call deletePet done")
} catch {
    print("call failed: \(error)")
}
do {
    _ = try await client.perform(.showPetById, 99) { $0.setValue("404", forHTTPHeaderField: "X-OpenAPI-Respond") }
} catch {
    if case .application(ShowPetByIdFailure.status404(let problem), let status) = error.reason {
        print("check showPetById.404=\(status) \(problem.message)")
    }
}
