// What Reliability.md's prose stands for: a feed that can be large.
extension WebServiceCall where Response == Data {
    static let feed = WebServiceCall(relativePath: "feed")
}
