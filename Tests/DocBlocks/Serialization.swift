// What Serialization.md's prose stands for: a person a legacy service reads.
struct Person: Codable, Sendable, Equatable {
    let name: String
    let city: String
}
