// What Retries.md's prose stands for: a report type, a search call and the app's scheduler.
struct Report: Codable, Sendable { let id: String }
extension WebServiceCall where Response == [Repo] {
    static let search = WebServiceCall(relativePath: "search?q=%%0%%")
}
func scheduleLater(after seconds: TimeInterval) {}
