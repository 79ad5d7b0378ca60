// What IDLImport.md's prose stands for: the code webservice-gen wrote (compiled with the blocks),
// a key, a place reference and an attachment's bytes.
// also: Samples/GeneratedPlaces/Generated.swift
// also: Samples/Demo/OpenAPI/Petstore.swift
// The notes service's responses are httpbin's echo (`/anything`), where its calls go when they run.
// replace: https://api.example.com/ => $WEBSERVICEKIT_HTTPBIN_URL/anything/
let key = "api-key"
let reference = "place-reference"
let data = Data("attachment".utf8)
// The OpenAPI section reads the tests' Petstore fixture.
// replace: "petstore.yaml" => "$REPOSITORY/Tests/WebServiceGenKitTests/Fixtures/OpenAPI/petstore.yaml"
// The OpenAPI section generates the demo's document, and calls its client against the local
// server that validates each request (Tests/Servers/openapi_server.py).
// replace: "generate/petstore.yaml" => "$REPOSITORY/Tests/WebServiceGenKitTests/Fixtures/OpenAPI/generate/petstore.yaml"
// replace: https://petstore.example/v1/ => $WEBSERVICEKIT_OPENAPI_URL/petstore/
