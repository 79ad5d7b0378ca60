import Foundation

/// The document's `servers` (service roots) and `securitySchemes` (an authentication provider).
extension OpenAPISwiftWriter {
    // MARK: Servers

    /// `enum Servers`: a function per server of the document, its variables as parameters with
    /// their defaults, returning the service root (with a trailing `/`, so the calls' paths append).
    mutating func writeServers(_ servers: [OpenAPIServer], named name: String) {
        documentation(["The document's servers: each gives a service root for `WebServiceClient(serviceRoot:)`."])
        block("\(access)enum \(name)") { writer in
            for (index, server) in servers.enumerated() {
                if index > 0 { writer.line() }
                var docs = [
                    "`\(server.url)`" + (OpenAPIModelBuilder.oneLine(server.description).map { ": \($0)" } ?? "")
                ]
                var names = GeneratedNames()
                var parameters: [String] = []
                var text = server.url.hasSuffix("/") ? server.url : server.url + "/"
                text = SwiftNaming.stringLiteral(text)
                for variable in server.variables {
                    let parameter = names.claimMember(variable.name)
                    parameters.append("\(parameter): String = \(SwiftNaming.stringLiteral(variable.defaultValue))")
                    var line = "- \(GeneratedNames.unescaped(parameter)): `{\(variable.name)}`"
                    if let description = OpenAPIModelBuilder.oneLine(variable.description) {
                        line += ", \(description)"
                    }
                    if !variable.allowedValues.isEmpty {
                        line += "; one of " + variable.allowedValues.map { "`\($0)`" }.joined(separator: ", ")
                    }
                    docs.append(line)
                    let placeholder = SwiftNaming.stringLiteral("{\(variable.name)}").dropFirst().dropLast()
                    text = text.replacingOccurrences(of: placeholder, with: "\\(\(parameter))")
                }
                if docs.count > 1 { docs.insert("", at: 1) }
                docs += ["", "`nil` when the values do not make a URL."]
                writer.documentation(docs)
                writer.block(
                    "\(writer.access)static func server\(index + 1)(\(parameters.joined(separator: ", "))) -> URL?"
                ) { writer in
                    writer.line("URL(string: \(text))")
                }
            }
        }
    }

    // MARK: Security

    /// Whether the generated provider adds the scheme's credential itself (an API key, Basic, a
    /// bearer token), rather than through a provider of its own (OAuth 2, OpenID Connect).
    static func isDirect(_ kind: OpenAPISecurityScheme.Kind) -> Bool {
        switch kind {
        case .apiKey, .http: true
        default: false
        }
    }

    static func isOAuth(_ kind: OpenAPISecurityScheme.Kind) -> Bool {
        if case .oauth2 = kind { return true }
        return false
    }

    /// The provider: a credential per scheme the calls use, and the table of each call's
    /// requirements.
    mutating func writeSecurity(
        _ schemes: [OpenAPINamed<OpenAPISecurityScheme>], calls: [GeneratedCall], named name: String
    ) {
        var names = GeneratedNames(reserved: ["origin", "requirements"])
        var members: [(scheme: String, member: String, kind: OpenAPISecurityScheme.Kind)] = []
        for scheme in schemes {
            if case .mutualTLS = scheme.value.kind { continue }
            if case .http(let kind, _) = scheme.value.kind, kind != "basic", kind != "bearer" { continue }
            members.append((scheme.name, names.claimMember(scheme.name), scheme.value.kind))
        }
        documentation([
            "The credentials of the document's security schemes, sent as each call's `security` asks:",
            "a call goes with the first of its requirements whose schemes all have credentials here, and",
            "fails with an `authentication` error naming them when none has (a call whose `security`",
            "allows none goes without). Only requests to `origin` get credentials, redirects included.",
            "",
            "```swift",
            "var security = \(options.namespace.map { $0 + "." } ?? "")\(name)(origin: serviceRoot)",
            "client.authenticationProvider = security",
            "```",
        ])
        block("\(access)struct \(name): AuthenticationProvider") { writer in
            for member in members {
                switch member.kind {
                case .apiKey(let key, let location):
                    writer.documentation(["`\(member.scheme)`: an API key, sent in the \(location.rawValue) `\(key)`."])
                    writer.line("\(writer.access)var \(member.member): String?")
                case .http(let kind, _) where kind == "basic":
                    writer.documentation(["`\(member.scheme)`: HTTP Basic (RFC 7617), a user and a password."])
                    writer.line("\(writer.access)var \(member.member): (user: String, password: String)?")
                case .http:
                    writer.documentation([
                        "`\(member.scheme)`: a bearer token (RFC 6750), asked for before each request (the closure",
                        "may cache it).",
                    ])
                    writer.line("\(writer.access)var \(member.member): (@Sendable () async throws -> String)?")
                default:
                    writer.documentation([
                        "`\(member.scheme)`: \(Self.isOAuth(member.kind) ? "OAuth 2" : "OpenID Connect"), through a provider that adds the token and",
                        "renews it: `SingleFlightAuthenticationProvider(client)`, whose `CredentialAuthenticator` runs",
                        "the flow (client credentials, a refresh token) once for every call a 401 stopped.",
                    ])
                    writer.line("\(writer.access)var \(member.member): (any AuthenticationProvider)?")
                }
            }
            writer.documentation(["The origin the credentials are for."])
            writer.line("\(writer.access)let origin: URL")
            writer.line()
            writer.documentation(["Credentials for `origin`; set the schemes' members you have."])
            writer.line("\(writer.access)init(origin: URL) { self.origin = origin }")
            writer.line()
            writer.documentation(["Each call's `security`: its requirements, each the schemes that apply together."])
            let rows = calls.map { call in
                let requirements = call.security.map {
                    "[" + $0.map(SwiftNaming.stringLiteral).joined(separator: ", ") + "]"
                }
                return
                    "\(SwiftNaming.stringLiteral(GeneratedNames.unescaped(call.name))): [\(requirements.joined(separator: ", "))]"
            }
            writer.line("\(writer.access)static let requirements: [String: [[String]]] = [")
            for row in rows { writer.line("    \(row),") }
            writer.line("]")
            writer.line()
            writer.documentation(["Adds the credentials of the call's first requirement that can be met."])
            writer.line(
                "\(writer.access)func authenticate(_ request: WebServiceRequest, for call: CallDescriptor) async throws"
            )
            writer.line("    -> WebServiceRequest")
            writer.block("") { writer in
                writer.line(
                    "guard let url = request.url, url.scheme == origin.scheme, url.host == origin.host, url.port == origin.port"
                )
                writer.line("else { return request }")
                writer.line("let options = Self.requirements[call.name] ?? []")
                writer.line("guard !options.isEmpty else { return request }")
                writer.block("guard let requirement = options.first(where: { meets($0) }) else") { writer in
                    writer.line(
                        "let wanted = options.map { $0.joined(separator: \" and \") }.joined(separator: \", or \")")
                    writer.line("throw WebServiceError.authentication(")
                    writer.line("    \"\\(call.name) needs credentials for \\(wanted): set them on \(name)\")")
                }
                writer.line("var request = request")
                writer.block("for scheme in requirement") { writer in
                    writer.line("switch scheme {")
                    for member in members {
                        let plain = GeneratedNames.unescaped(member.member)
                        writer.line("case \(SwiftNaming.stringLiteral(member.scheme)):")
                        writer.indent += 1
                        switch member.kind {
                        case .apiKey(let key, let location):
                            writer.line("guard let key = \(plain) else { continue }")
                            switch location {
                            case .header:
                                writer.line(
                                    "request.setValue(key, forHTTPHeaderField: \(SwiftNaming.stringLiteral(key)))")
                            case .cookie:
                                writer.line("let cookie = \(SwiftNaming.stringLiteral(key + "=")) + key")
                                writer.line("let existing = request.value(forHTTPHeaderField: \"Cookie\")")
                                writer.line(
                                    "request.setValue(existing.map { $0 + \"; \" + cookie } ?? cookie, forHTTPHeaderField: \"Cookie\")"
                                )
                            default:
                                writer.line("guard let url = request.url,")
                                writer.line(
                                    "    var components = URLComponents(url: url, resolvingAgainstBaseURL: false)")
                                writer.line("else { continue }")
                                writer.line(
                                    "components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: \(SwiftNaming.stringLiteral(key)), value: key)]"
                                )
                                writer.line("request.url = components.url")
                            }
                        case .http(let kind, _) where kind == "basic":
                            writer.line("guard let (user, password) = \(plain) else { continue }")
                            writer.line("let encoded = Data((user + \":\" + password).utf8).base64EncodedString()")
                            writer.line("request.setValue(\"Basic \" + encoded, forHTTPHeaderField: \"Authorization\")")
                        case .http:
                            writer.line("guard let token = \(plain) else { continue }")
                            writer.line(
                                "request.setValue(\"Bearer \" + (try await token()), forHTTPHeaderField: \"Authorization\")"
                            )
                        default:
                            writer.line("guard let provider = \(plain) else { continue }")
                            writer.line("request = try await provider.authenticate(request, for: call)")
                        }
                        writer.indent -= 1
                    }
                    writer.line("default: continue")
                    writer.line("}")
                }
                writer.line("return request")
            }
            let providers = members.filter { !Self.isDirect($0.kind) }
            if !providers.isEmpty {
                writer.line()
                writer.documentation([
                    "Lets the OAuth 2 and OpenID Connect providers of the call's schemes see the answer: one may",
                    "renew its token and ask for the request again.",
                ])
                writer.line(
                    "\(writer.access)func handle(_ response: TransportResponse, to request: WebServiceRequest, "
                        + "for call: CallDescriptor)")
                writer.line("    async throws -> AuthenticationDecision")
                writer.block("") { writer in
                    writer.block("for provider in providers(for: call)") { writer in
                        writer.block(
                            "if case .retry = try await provider.handle(response, to: request, for: call)"
                        ) { writer in writer.line("return .retry") }
                    }
                    writer.line("return .proceed")
                }
                writer.line()
                writer.documentation(["Tells the providers of the call's schemes that its request got no answer."])
                writer.block(
                    "\(writer.access)func handle(_ failure: WebServiceError, to request: WebServiceRequest, "
                        + "for call: CallDescriptor) async"
                ) { writer in
                    writer.block("for provider in providers(for: call)") { writer in
                        writer.line("await provider.handle(failure, to: request, for: call)")
                    }
                }
                writer.line()
                writer.documentation(["Forgets the providers' tokens."])
                writer.block("\(writer.access)func invalidate() async") { writer in
                    for member in providers {
                        writer.line("await \(GeneratedNames.unescaped(member.member))?.invalidate()")
                    }
                }
                writer.line()
                writer.documentation(["The providers set for the schemes the call's requirements name."])
                writer.block("private func providers(for call: CallDescriptor) -> [any AuthenticationProvider]") {
                    writer in
                    writer.line("let schemes = Set((Self.requirements[call.name] ?? []).joined())")
                    writer.line("var found: [any AuthenticationProvider] = []")
                    for member in providers {
                        let plain = GeneratedNames.unescaped(member.member)
                        writer.line(
                            "if schemes.contains(\(SwiftNaming.stringLiteral(member.scheme))), let provider = \(plain) "
                                + "{ found.append(provider) }")
                    }
                    writer.line("return found")
                }
            }
            writer.line()
            writer.documentation(["Whether every scheme of `requirement` has credentials."])
            writer.block("private func meets(_ requirement: [String]) -> Bool") { writer in
                writer.block("requirement.allSatisfy") { writer in
                    writer.line("scheme in")
                    writer.line("switch scheme {")
                    for member in members {
                        let plain = GeneratedNames.unescaped(member.member)
                        writer.line("case \(SwiftNaming.stringLiteral(member.scheme)): \(plain) != nil")
                    }
                    writer.line("default: false")
                    writer.line("}")
                }
            }
        }
    }
}
