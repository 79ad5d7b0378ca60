import Foundation
import WebServiceKit

/// The OpenAPI import: `OpenAPI/Petstore.swift` is what `webservice-gen openapi` wrote for the
/// Petstore document (Tests/WebServiceGenKitTests/Fixtures/OpenAPI/generate/petstore.yaml; a test
/// checks it is the generator's output today). Here its typed calls run against the local server
/// that validates every request with openapi-core and answers from the document.
func demonstrateOpenAPI(root: URL) async {
    let client = WebServiceClient(serviceRoot: root)
    var security = Petstore.Security(origin: root)
    security.apiKey = "demo-key"
    client.authenticationProvider = security
    print("the document's server: \(Petstore.Servers.server1()?.absoluteString ?? "-"), here \(root.absoluteString)")
    do {
        // Arguments and bodies are typed: `limit` an Int32?, `status` the generated enum.
        let pets = try await client.perform(.listPets, 10, .available, ["dog"])
        print("listPets(limit: 10, status: .available, tags: [dog]): \(pets.count) pets")
        let created = try await client.perform(
            .createPet, body: Petstore.NewPet(name: "Rex", tags: ["dog"], status: .available))
        print(
            "createPet: #\(created.id) \(created.name), \(created.status), born \(created.born.map { "\($0)" } ?? "-")")
        let shown = try await client.perform(.showPetById, created.id)
        print("showPetById(\(created.id)): \(shown.name)")
        _ = try await client.perform(.deletePet, created.id)
        print("deletePet(\(created.id)): done")
    } catch {
        print("failed: \(error)")
    }
    // A documented error answer arrives as the operation's typed error (the local server answers
    // with the status a request asks for).
    do {
        _ = try await client.perform(.showPetById, 99) { $0.setValue("404", forHTTPHeaderField: "X-OpenAPI-Respond") }
    } catch {
        if case .application(Petstore.ShowPetByIdFailure.status404(let problem), let status) = error.reason {
            print("showPetById(99): \(status), \(problem.message) (a ShowPetByIdFailure.status404)")
        } else {
            print("failed: \(error)")
        }
    }
    // Without the key the document asks for, the call fails before anything is sent.
    client.authenticationProvider = Petstore.Security(origin: root)
    do {
        _ = try await client.perform(.listPets, nil, nil, nil)
    } catch {
        print("without an API key: \(error.reason)")
    }
}
