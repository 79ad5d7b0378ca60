import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `%%N%%` templates: `Template.parse`, `URLTemplate.parse`, and the request a call builds from
/// them with fuzzed arguments.
///
/// Input: fields separated by 0xFF: a relative path, a header value template, then the
/// arguments. An argument written `<nil>` is `nil`, `<list>a,b` is `["a", "b"]`, `<path>x` is
/// `PreEncodedPath("x")`, anything else is the text itself.
///
/// Beyond not crashing:
/// - a parsed template has no empty or adjacent literals and indices within 0…999, and writing
///   it back and parsing again gives the same template; an error quotes the input;
/// - a parsed URL template's literals are already valid URL text (`pchar`, `/`, `%XX` in the
///   path; `query` characters in the query), its query names are not empty, and writing it back
///   and parsing again gives the same template (normalisation is idempotent);
/// - a built request has a URL that reads back as itself, without fragment, space, control or
///   non-ASCII characters, under the service root for a relative path; its header values never
///   carry CR, LF or NUL. Anything else is a typed `WebServiceError`.
enum TemplateTarget {
    static func run(_ bytes: [UInt8]) {
        let fields = fuzzFields(bytes)
        let relativePath = fields[0]
        checkTemplate(relativePath)
        checkURLTemplate(relativePath)
        let header = fields.count > 1 ? fields[1] : nil
        if let header { checkTemplate(header) }
        checkRequest(relativePath: relativePath, header: header, arguments: Array(fields.dropFirst(2)))
    }

    // MARK: - Template

    static func write(_ template: Template) -> String {
        template.parts.map { part in
            switch part {
            case .literal(let text): text
            case .argument(let index): "%%\(index)%%"
            }
        }.joined()
    }

    private static func checkTemplate(_ text: String) {
        let template: Template
        do {
            template = try Template.parse(text)
        } catch {
            fuzzCheck(error.text == text, "the error quotes another text: \(error.text) for \(text)")
            return
        }
        checkShape(template, of: text)
        fuzzCheck(
            write(template) == text || (try? Template.parse(write(template))) == template,
            "template \(text.debugDescription) does not read back: \(write(template).debugDescription)")
    }

    private static func checkShape(_ template: Template, of text: String) {
        var previousWasLiteral = false
        for part in template.parts {
            switch part {
            case .literal(let literal):
                fuzzCheck(!literal.isEmpty, "empty literal in \(text.debugDescription)")
                fuzzCheck(!previousWasLiteral, "adjacent literals in \(text.debugDescription)")
                previousWasLiteral = true
            case .argument(let index):
                fuzzCheck((0...Template.maximumIndex).contains(index), "index \(index) in \(text.debugDescription)")
                previousWasLiteral = false
            }
        }
    }

    // MARK: - URLTemplate

    static func write(_ url: URLTemplate) -> String {
        var text = write(url.path)
        if !url.query.isEmpty {
            text +=
                "?"
                + url.query.map { write($0.name) + ($0.value.map { "=" + write($0) } ?? "") }
                .joined(separator: "&")
        }
        return text
    }

    private static let queryBytes = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?".utf8)

    /// Whether every `%` starts a `%XX` escape and every other byte is in `allowed`.
    private static func isURLText(_ text: String, allowed: (UInt8) -> Bool) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                    return false
                }
                index += 3
            } else {
                guard allowed(bytes[index]) else { return false }
                index += 1
            }
        }
        return true
    }

    private static func checkURLTemplate(_ text: String) {
        let url: URLTemplate
        do {
            url = try URLTemplate.parse(text)
        } catch {
            fuzzCheck(text.contains(error.text), "the error quotes another text: \(error.text)")
            return
        }
        checkShape(url.path, of: text)
        for case .literal(let literal) in url.path.parts {
            fuzzCheck(
                URLEncoding.isValidEncodedPath(literal), "path literal \(literal.debugDescription) is not URL text")
        }
        for item in url.query {
            fuzzCheck(!item.name.isEmpty, "empty query name in \(text.debugDescription)")
            for template in [item.name] + (item.value.map { [$0] } ?? []) {
                checkShape(template, of: text)
                for case .literal(let literal) in template.parts {
                    fuzzCheck(
                        isURLText(literal, allowed: queryBytes.contains), "query literal \(literal.debugDescription)")
                }
            }
        }
        let written = write(url)
        let again: URLTemplate?
        do { again = try URLTemplate.parse(written) } catch { again = nil }
        fuzzCheck(again == url, "URL template \(text.debugDescription) does not read back: \(written.debugDescription)")
    }

    // MARK: - Requests

    private static let serviceRoot = URL(string: "https://api.example.com/v1/")!

    private static func argument(_ field: String) -> any Sendable {
        if field == "<nil>" { return String?.none }
        if field.hasPrefix("<list>") { return field.dropFirst(6).split(separator: ",").map(String.init) }
        if field.hasPrefix("<path>") { return PreEncodedPath(String(field.dropFirst(6))) }
        return field
    }

    private static func checkRequest(relativePath: String, header: String?, arguments: [String]) {
        let call = WebServiceCall<Data>(
            relativePath: relativePath, headers: header.map { ["X-Fuzz": $0] } ?? [:], cacheIdentifier: header)
        guard case .success(let compiled) = call.descriptor.compiled else { return }
        let factory = RequestFactory(
            descriptor: call.descriptor, compiled: compiled,
            defaults: RequestDefaults(
                serviceRoot: ServiceRoot(serviceRoot), sharedHeaders: [:], requestSerializer: JSONRequestSerializer(),
                timeout: 30))
        let prepared: PreparedRequest
        do {
            prepared = try factory.makeRequest(arguments: arguments.map(argument))
        } catch {
            return  // a typed WebServiceError: fine
        }
        guard let url = prepared.request.url else { return fuzzCheck(false, "a request without URL") }
        let text = url.absoluteString
        fuzzCheck(URL(string: text)?.absoluteString == text, "URL \(text) does not read back")
        fuzzCheck(url.fragment == nil && !text.contains("#"), "URL \(text) has a fragment")
        fuzzCheck(text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "URL \(text.debugDescription) is not plain ASCII")
        if case .serviceRoot = compiled.url.anchor {
            fuzzCheck(text.hasPrefix(serviceRoot.absoluteString), "URL \(text) left the service root")
        }
        for (name, value) in prepared.request.allHTTPHeaderFields ?? [:] {
            fuzzCheck(HeaderValidation.problem(in: value) == nil, "header \(name) carries \(value.debugDescription)")
        }
    }
}
