// The calls of bodies.yaml's generated client against the validating server
// (OpenAPIGeneratedCodeTests): bodies of every kind, typed errors, servers and security.

print("check server.default=\(Servers.server1()?.absoluteString ?? "nil")")
print("check server.us=\(Servers.server1(region: "us", base: "v2")?.absoluteString ?? "nil")")

let root = URL(string: ProcessInfo.processInfo.environment["OPENAPI_ROOT"] ?? "http://127.0.0.1:9/")!
    .appendingPathComponent("bodies/")
let client = WebServiceClient(serviceRoot: root)
var security = Security(origin: root)
security.apiKey = "k-header"
security.queryKey = "k-query"
security.cookieKey = "k-cookie"
security.bearer = { "t-bearer" }
/// OAuth 2 through the library's provider hook: a token client whose tokens a 401 renews.
actor TokenClient: CredentialAuthenticator {
    private(set) var issued = 0
    func authenticate(replacing current: String?) async throws -> String {
        issued += 1
        return "t-oauth-\(issued)"
    }
    nonisolated func apply(_ token: String, to request: inout WebServiceRequest) {
        request.setValue("Bearer " + token, forHTTPHeaderField: "Authorization")
    }
}
let tokens = TokenClient()
security.oauth = SingleFlightAuthenticationProvider(tokens)

func outcome(_ name: String, _ perform: () async throws -> String) async {
    do {
        print("call \(name) \(try await perform())")
    } catch {
        print("call \(name) failed")
        print("error \(name): \(error)")
    }
}

func respond(_ status: String) -> @Sendable (inout WebServiceRequest) throws -> Void {
    { $0.setValue(status, forHTTPHeaderField: "X-OpenAPI-Respond") }
}

// Without credentials, a call whose security needs some fails before it is sent; one whose
// security allows none goes without.
client.authenticationProvider = Security(origin: root)
await outcome("createNote.noCredentials") { try await client.perform(.createNote, body: NewNote(title: "t")).title }
client.authenticationProvider = security

await outcome("createNote") {
    try await client.perform(.createNote, body: NewNote(title: "Groceries", pinned: true)).title
}
await outcome("getNote") { try await client.perform(.getNote, 1).title }
// The second requirement of getNote: HTTP Basic, when no bearer token is set.
var basicOnly = Security(origin: root)
basicOnly.basic = (user: "u", password: "p")
let basicClient = WebServiceClient(serviceRoot: root)
basicClient.authenticationProvider = basicOnly
await outcome("getNote.basic") { try await basicClient.perform(.getNote, 1).title }
await outcome("login") {
    let form = LoginRequest(
        user: "u", password: "p w&x=1", remember: true, tags: ["a b", "c"], ids: [1, 2],
        prefs: LoginRequestPrefs(theme: "dark", size: 3))
    return "text=\(try await client.perform(.login, body: form).isEmpty == false)"
}
await outcome("uploadAttachment") {
    let request = UploadAttachmentRequest(
        title: "Photo", file: Data([0x89, 0x50, 0x4E, 0x47]), tags: ["a", "b"], meta: NewNote(title: "m"))
    _ = try await client.perform(.uploadAttachment, body: try request.formData())
    return "stored"
}
await outcome("putBlob") {
    _ = try await client.perform(.putBlob, "a b.bin", body: .data(Data([1, 2, 3])))
    return "stored"
}
await outcome("putBlob.file") {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-blob-\(UUID().uuidString)")
    try Data(repeating: 7, count: 100_000).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    _ = try await client.perform(.putBlob, "big.bin", body: try .file(file))
    return "stored"
}
await outcome("getBlob") { "\(try await client.perform(.getBlob, "a b.bin").count > 0)" }
// A 401 makes the OAuth provider renew its token and the call go again.
do {
    _ = try await client.perform(.getBlob, "a b.bin", prepare: respond("401"))
} catch {
    print("check oauth.renewed=\(await tokens.issued > 1) \(error.category)")
}
await outcome("getBlobToFile") {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-get-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: file) }
    let downloaded = try await client.perform(.getBlobToFile, "a b.bin", DownloadDestination(file))
    return "\(downloaded.url == file) \(downloaded.byteCount > 0)"
}
await outcome("echoText") { "text=\(try await client.perform(.echoText, body: "hello").isEmpty == false)" }
await outcome("feed") {
    var count = 0
    for try await _ in try await client.stream(.feed) { count += 1 }
    return "events=\(count)"
}
await outcome("logLines") {
    var titles: [String] = []
    for try await note in try await client.stream(.logLines) { titles.append(note.title) }
    return titles.joined(separator: ",")
}

// Typed errors: the documented answers of createNote that are not successes.
for status in ["400", "409", "500"] {
    do {
        _ = try await client.perform(.createNote, body: NewNote(title: "t"), prepare: respond(status))
        print("check failure.\(status)=succeeded")
    } catch {
        if case .application(let failure as CreateNoteFailure, let code) = error.reason {
            print("check failure.\(status)=\(code) \(failure)")
        } else {
            print("check failure.\(status)=\(error)")
        }
    }
}
do {
    _ = try await client.perform(.getNote, 2, prepare: respond("404"))
} catch {
    if case .application(let failure as GetNoteFailure, _) = error.reason { print("check failure.404=\(failure)") }
}
