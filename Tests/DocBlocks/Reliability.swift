// What Reliability.md's prose stands for: a feed that can be large.
extension TypedCall where Arguments == ArgumentList<>, Body == NoBody, Response == Data {
    static let feed = TypedCall(.init(relativePath: "feed"))
}
