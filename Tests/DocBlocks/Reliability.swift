// What Reliability.md's prose stands for: a feed that can be large (the example API's is 5 MiB).
extension TypedCall where Arguments == ArgumentList<>, Body == NoBody, Response == Data {
    static let feed = TypedCall(.init(relativePath: "feed/full"))
}
