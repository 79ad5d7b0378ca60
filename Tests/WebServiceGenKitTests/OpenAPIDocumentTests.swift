import Foundation
import WebServiceGenKit
import XCTest

final class OpenAPIDocumentTests: XCTestCase {
    func testReadsThePetstore() throws {
        let document = try OpenAPIReader.read(contentsOf: openAPIFixture("petstore.yaml"))
        XCTAssertEqual(document.version.text, "3.0.3")
        XCTAssertFalse(document.version.isJSONSchema2020)
        XCTAssertEqual(document.info.title, "Swagger Petstore")
        XCTAssertEqual(document.info.version, "1.0.0")

        let server = try XCTUnwrap(document.servers.first)
        XCTAssertEqual(server.url, "https://{region}.petstore.example/{basePath}")
        XCTAssertEqual(server.description, "Production")
        XCTAssertEqual(server.variables.map(\.name), ["region", "basePath"])
        XCTAssertEqual(server.variables[0].defaultValue, "eu")
        XCTAssertEqual(server.variables[0].allowedValues, ["eu", "us"])
        XCTAssertEqual(server.variables[1].allowedValues, [])

        XCTAssertEqual(document.paths.map(\.path), ["/pets", "/pets/{petId}"])
        let pets = document.paths[0]
        XCTAssertEqual(pets.operations.map(\.method), [.get, .post])
        let list = pets.operations[0]
        XCTAssertEqual(list.operationId, "listPets")
        XCTAssertEqual(list.tags, ["pets"])
        // Path-level parameters first, the operation's `limit` overriding the path's.
        XCTAssertEqual(list.parameters.map(\.name), ["X-Trace", "limit", "session", "tags"])
        XCTAssertEqual(list.parameters[1].description, nil)
        XCTAssertEqual(list.parameters[1].schema?.format, "int32")
        XCTAssertEqual(list.parameters.map(\.style), [.simple, .form, .form, .pipeDelimited])
        XCTAssertEqual(list.parameters.map(\.explode), [false, true, true, false])
        XCTAssertEqual(list.parameters.map(\.location), [.header, .query, .cookie, .query])
        XCTAssertEqual(list.parameters[3].source.pointer.description, "/components/parameters/Tags")
        XCTAssertEqual(list.security, [OpenAPISecurityRequirement(entries: [.init(scheme: "api_key", scopes: [])])])
        XCTAssertEqual(list.servers, [])

        XCTAssertEqual(list.responses.map(\.status), [.code(200), .range(2), .default])
        let ok = list.responses[0]
        XCTAssertEqual(ok.headers.map(\.name), ["x-next"])
        XCTAssertEqual(ok.headers[0].schema?.types, [.string])
        XCTAssertEqual(ok.content.map(\.mediaType), ["application/json"])
        let petsLocation = OpenAPILocation(
            file: OpenAPILoader.canonical(openAPIFixture("petstore.yaml")),
            pointer: try JSONPointer(parsing: "#/components/schemas/Pets"))
        XCTAssertEqual(ok.content[0].schema?.reference, petsLocation)
        XCTAssertEqual(list.responses[1].description, "Nothing")
        XCTAssertEqual(list.responses[1].source.pointer.description, "/components/responses/Empty")

        let create = pets.operations[1]
        XCTAssertEqual(create.security, [])
        XCTAssertEqual(create.servers.map(\.url), ["https://upload.petstore.example"])
        let body = try XCTUnwrap(create.requestBody)
        XCTAssertTrue(body.required)
        XCTAssertEqual(body.content.map(\.mediaType), ["application/json", "multipart/form-data"])
        let encoding = try XCTUnwrap(body.content[1].encoding.first)
        XCTAssertEqual(encoding.property, "photo")
        XCTAssertEqual(encoding.contentType, "image/png")
        XCTAssertEqual(encoding.style, .form)
        XCTAssertEqual(encoding.explode, false)
        XCTAssertTrue(encoding.allowReserved)
        XCTAssertEqual(encoding.headers.map(\.name), ["X-Rate"])
        XCTAssertEqual(body.content[1].schema?.properties.map(\.name), ["photo"])

        let show = document.paths[1].operations[0]
        XCTAssertTrue(show.deprecated)
        XCTAssertEqual(show.parameters.first?.style, .label)
        XCTAssertEqual(show.parameters.first?.required, true)
        XCTAssertEqual(
            show.security.first?.entries,
            [.init(scheme: "oauth", scopes: ["read:pets"]), .init(scheme: "api_key", scopes: [])])
    }

    func testReadsThePetstoreComponents() throws {
        let document = try OpenAPIReader.read(contentsOf: openAPIFixture("petstore.yaml"))
        let components = document.components
        XCTAssertEqual(components.schemas.map(\.name), ["Pet", "Dog", "Pets", "Error"])
        let pet = components.schemas[0].value
        XCTAssertEqual(pet.types, [.object])
        XCTAssertEqual(pet.required, ["id", "name"])
        XCTAssertEqual(pet.discriminator?.propertyName, "kind")
        XCTAssertEqual(pet.discriminator?.mapping, [OpenAPINamed(name: "dog", value: "#/components/schemas/Dog")])
        XCTAssertEqual(
            pet.properties.map(\.name), ["id", "name", "tag", "kind", "parent", "attributes", "notThis"])
        XCTAssertTrue(pet.properties[0].value.readOnly)
        XCTAssertEqual(pet.properties[1].value.examples, [.string("Rex")])
        XCTAssertEqual(pet.properties[2].value.types, [.string, .null])
        XCTAssertTrue(pet.properties[2].value.isNullable)
        XCTAssertEqual(pet.properties[3].value.enumValues, [.string("dog"), .string("cat"), .int(1), .null])
        // Recursion is kept as a reference to the schema itself.
        XCTAssertEqual(pet.properties[4].value.reference, pet.source)
        guard case .schema(let values)? = pet.properties[5].value.additionalProperties else {
            return XCTFail("additionalProperties should be a schema")
        }
        XCTAssertEqual(values.types, [.string])
        XCTAssertEqual(components.schemas[3].value.additionalProperties, .allowed(false))
        let dog = components.schemas[1].value
        XCTAssertEqual(dog.allOf.count, 2)
        XCTAssertEqual(dog.allOf[0].reference, pet.source)
        XCTAssertEqual(dog.allOf[1].properties.first?.value.defaultValue, .bool(true))
        XCTAssertEqual(components.schemas[2].value.items?.reference, pet.source)
        XCTAssertEqual(document.schemas[pet.source], pet)

        XCTAssertEqual(components.securitySchemes.map(\.name), ["api_key", "basic", "bearer", "oauth", "oidc"])
        let kinds = components.securitySchemes.map(\.value.kind)
        XCTAssertEqual(kinds[0], .apiKey(name: "X-API-Key", location: .header))
        XCTAssertEqual(kinds[1], .http(scheme: "basic", bearerFormat: nil))
        XCTAssertEqual(kinds[2], .http(scheme: "bearer", bearerFormat: "JWT"))
        guard case .oauth2(let flows) = kinds[3] else { return XCTFail("oauth2 expected") }
        XCTAssertEqual(flows.clientCredentials?.tokenURL, "https://auth.example/token")
        XCTAssertEqual(flows.clientCredentials?.scopes.map(\.name), ["read:pets", "write:pets"])
        XCTAssertEqual(flows.authorizationCode?.authorizationURL, "https://auth.example/authorize")
        XCTAssertEqual(flows.authorizationCode?.refreshURL, "https://auth.example/refresh")
        XCTAssertEqual(flows.implicit?.authorizationURL, "https://auth.example/implicit")
        XCTAssertEqual(flows.password?.tokenURL, "https://auth.example/password")
        XCTAssertEqual(kinds[4], .openIdConnect(url: "https://auth.example/.well-known/openid-configuration"))
        XCTAssertEqual(components.parameters.map(\.name), ["Tags"])
        XCTAssertEqual(components.responses.map(\.name), ["Empty"])

        XCTAssertEqual(
            document.warnings.map { "\($0.location.pointer): \($0.message)" },
            [
                "/components/schemas/Pet/properties/notThis/not: 'not' is ignored",
                "/components/schemas/Pet/properties/notThis/xml: 'xml' is ignored",
                "/paths/~1pets/post/callbacks: callbacks are not imported",
                "/paths/~1pets~1{petId}/get/responses/200/links: links are not imported",
            ])
    }

    func testReadsA31JSONDocument() throws {
        let document = try OpenAPIReader.read(contentsOf: openAPIFixture("events31.json"))
        XCTAssertEqual(document.version.minor, 1)
        // JSON escapes: \u00e9, \" and \/.
        XCTAssertEqual(document.info.title, "Café \"Events\"")
        XCTAssertEqual(document.info.version, "2")
        XCTAssertEqual(document.servers.map(\.url), ["https://api.example/v2"])
        let path = try XCTUnwrap(document.paths.first)
        XCTAssertEqual(path.operations.map(\.method), [.get])
        let get = path.operations[0]
        XCTAssertEqual(get.parameters.map(\.name), ["id", "filter", "X-Id"])
        XCTAssertEqual(get.parameters[1].schema, nil)
        XCTAssertEqual(get.parameters[1].content.map(\.mediaType), ["application/json"])
        XCTAssertEqual(get.parameters[2].schema?.types, [.integer, .null])
        XCTAssertEqual(get.parameters[2].style, .simple)
        XCTAssertTrue(get.parameters[2].explode)
        XCTAssertEqual(get.responses.map(\.status), [.code(200), .range(4)])
        let schema = try XCTUnwrap(get.responses[0].content.first?.schema)
        XCTAssertEqual(schema.reference?.pointer.description, "/components/schemas/Event")
        XCTAssertEqual(schema.description, "kept in 3.1")
        XCTAssertEqual(get.security, [])

        XCTAssertEqual(document.webhooks.map(\.path), ["newEvent"])
        XCTAssertEqual(
            document.webhooks[0].operations.first?.requestBody?.content.first?.schema?.reference, schema.reference)

        let event = try XCTUnwrap(document.components.schemas.first?.value)
        let properties = event.properties
        XCTAssertEqual(properties[0].value.constValue, .string("event"))
        XCTAssertEqual(properties[1].value.types, [.string, .null])
        XCTAssertEqual(properties[1].value.examples, [.string("2024-01-01T00:00:00Z")])
        XCTAssertEqual(properties[2].value.items?.reference, event.source)
        XCTAssertTrue(properties[3].value.isFalse)
        XCTAssertEqual(properties[4].value, OpenAPISchema(source: properties[4].value.source))
        XCTAssertEqual(document.components.securitySchemes.first?.value.kind, .mutualTLS)
        XCTAssertEqual(document.warnings, [])
    }

    /// 3.1's tuples: `prefixItems` in order, and `items: false` (no element after them).
    func testReadsA31Tuple() throws {
        let document = try OpenAPIReader.read(contentsOf: openAPIFixture("pathitems31.yaml"))
        let point = try XCTUnwrap(document.components.schemas.first { $0.name == "Point" }?.value)
        XCTAssertEqual(point.types, [.array])
        XCTAssertEqual(point.prefixItems.map(\.types), [[.number], [.number]])
        XCTAssertEqual(point.items?.isFalse, true)
        XCTAssertEqual(document.warnings, [])
    }
}
