// What IDLImport.md's prose stands for: the code webservice-gen wrote (compiled with the blocks),
// a key, a place reference and an attachment's bytes.
// also: Samples/GeneratedPlaces/Generated.swift
let key = "api-key"
let reference = "place-reference"
let data = Data("attachment".utf8)
