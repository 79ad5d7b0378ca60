/// The calls' typed errors: an enum per operation of its documented answers that are not
/// successes, read by the generated `OpenAPIErrorHandler`.
extension OpenAPISwiftWriter {
    mutating func writeFailure(_ name: String, of call: GeneratedCall) {
        let plainName = GeneratedNames.unescaped(call.name)
        documentation([
            "The documented answers of `\(plainName)` that are not successes: the call fails with",
            "`.application(\(name), statusCode:)` when one arrives and its body reads.",
        ])
        block("\(access)enum \(name): Error, Sendable, Hashable") { writer in
            for failure in call.failures {
                writer.documentation(["\(failure.status): \(failure.summary ?? "no description")."])
                writer.line("case \(writer.caseDeclaration(failure))")
            }
            writer.line()
            writer.documentation([
                "The case of an answer with `statusCode` and `body`; `nil` when the document has none for it",
                "or its body does not read.",
            ])
            writer.block("\(writer.access)static func read(statusCode: Int, body: Data) -> \(name)?") { writer in
                writer.line("switch statusCode {")
                let ordered =
                    call.failures.filter { if case .code = $0.status { true } else { false } }
                    + call.failures.filter { if case .range = $0.status { true } else { false } }
                    + call.failures.filter { $0.status == .default }
                for failure in ordered {
                    let pattern: String
                    switch failure.status {
                    case .code(let code): pattern = "case \(code)"
                    case .range(let digit): pattern = "case \(digit * 100)...\(digit * 100 + 99)"
                    case .default: pattern = "default"
                    }
                    let reading = writer.reading(failure)
                    if 4 * writer.indent + pattern.count + reading.count + 2 > 120 {
                        writer.line(pattern + ":")
                        if 4 * writer.indent + 4 + reading.count > 120, let open = reading.range(of: ".map { ") {
                            writer.line("    " + reading[..<open.upperBound].dropLast())
                            writer.line("        " + reading[open.upperBound...].dropLast(2))
                            writer.line("    }")
                        } else {
                            writer.line("    " + reading)
                        }
                    } else {
                        writer.line("\(pattern): \(reading)")
                    }
                }
                if !call.failures.contains(where: { $0.status == .default }) { writer.line("default: nil") }
                writer.line("}")
            }
        }
    }

    /// Whether the case carries the status code: a range or `default` matches several.
    private func carriesStatus(_ failure: GeneratedFailure) -> Bool {
        if case .code = failure.status { return false }
        return true
    }

    private func caseDeclaration(_ failure: GeneratedFailure) -> String {
        var payload: [String] = []
        if carriesStatus(failure) { payload.append("statusCode: Int") }
        if let type = failure.type { payload.append(swiftType(type, qualified: false)) }
        return payload.isEmpty ? failure.name : "\(failure.name)(\(payload.joined(separator: ", ")))"
    }

    private func reading(_ failure: GeneratedFailure) -> String {
        let status = carriesStatus(failure) ? "statusCode: statusCode" : ""
        guard let type = failure.type else {
            return status.isEmpty ? ".\(failure.name)" : ".\(failure.name)(\(status))"
        }
        let arguments = status.isEmpty ? "$0" : "\(status), $0"
        return "(try? OpenAPICoding.decoder.decode(\(swiftType(type, qualified: false)).self, from: body)).map { "
            + ".\(failure.name)(\(arguments)) }"
    }

    mutating func writeErrorHandler() {
        documentation(["Reads a call's documented error answers into its error enum."])
        block("\(access)struct OpenAPIErrorHandler<Failure: Error & Sendable>: ResponseErrorHandler") { writer in
            writer.line("let read: @Sendable (Int, Data) -> Failure?")
            writer.line()
            writer.documentation(["Reads the answers `read` knows."])
            writer.line(
                "\(writer.access)init(_ read: @escaping @Sendable (Int, Data) -> Failure?) { self.read = read }")
            writer.line()
            writer.documentation(["The documented error of an answer that is not a success."])
            writer.block(
                "\(writer.access)func error(for response: ResponseContext, body: Data, statusAccepted: Bool) -> (any Error)?"
            ) { writer in
                writer.line("statusAccepted ? nil : read(response.statusCode, body)")
            }
        }
    }
}
