// What IDLImport.md's prose stands for: the code webservice-gen wrote (compiled with the blocks),
// a key, a place reference and an attachment's bytes.
// also: Samples/GeneratedPlaces/Generated.swift
// The notes service's responses are httpbin's echo (`/anything`), where its calls go when they run.
// replace: https://api.example.com/ => $WEBSERVICEKIT_HTTPBIN_URL/anything/
let key = "api-key"
let reference = "place-reference"
let data = Data("attachment".utf8)
// The OpenAPI section reads the tests' Petstore fixture.
// replace: "petstore.yaml" => "$REPOSITORY/Tests/WebServiceGenKitTests/Fixtures/OpenAPI/petstore.yaml"
