import Foundation

/// Loads the files of an OpenAPI document set (YAML or JSON, JSON being read as the YAML it is),
/// keeps each by URL, and resolves `$ref`s relative to the file that holds them.
///
/// A `$ref` is `#/json/pointer` (same file), `other.yaml`, `other.yaml#/pointer` or
/// `../dir/x.json#/pointer` (relative to the referring file's folder); `http(s)://` and other
/// URI schemes but `file:` are refused (no network). Chains of `$ref`s to `$ref`s are followed
/// up to ``OpenAPILimits/maximumReferenceChain`` and a cycle of nothing but `$ref`s is an error;
/// at most ``OpenAPILimits/maximumFiles`` files are loaded.
public struct OpenAPILoader: Sendable {
    /// Where files are read from.
    public let source: any OpenAPIFileSource
    /// The bounds of the reading.
    public let limits: OpenAPILimits
    /// The files loaded so far, by standardized file URL.
    public private(set) var files: [URL: YAMLValue] = [:]

    /// Creates a loader reading from `source`.
    public init(source: any OpenAPIFileSource = OpenAPIFileSystemSource(), limits: OpenAPILimits = OpenAPILimits()) {
        self.source = source
        self.limits = limits
    }

    /// `url` as the loader keys files: an absolute, standardized file URL.
    public static func canonical(_ url: URL) -> URL {
        URL(fileURLWithPath: url.absoluteURL.standardizedFileURL.path)
    }

    /// The `$ref` text of `value` when it is an object with a string `$ref` member.
    public static func reference(in value: YAMLValue) -> String? {
        guard case .string(let reference)? = value["$ref"] else { return nil }
        return reference
    }

    /// The whole document of the file at `url`, loaded on first use.
    public mutating func document(at url: URL) throws(OpenAPIError) -> YAMLValue {
        let url = Self.canonical(url)
        if let document = files[url] { return document }
        guard files.count < limits.maximumFiles else {
            throw OpenAPIError("more than \(limits.maximumFiles) files are referred to", file: url)
        }
        let bytes: [UInt8]
        do {
            bytes = try source.contents(of: url)
        } catch {
            throw OpenAPIError("the file cannot be read (\(error.localizedDescription))", file: url)
        }
        let document: YAMLValue
        do {
            document = try YAMLReader.value(fromEncoded: bytes, limits: limits.yaml)
        } catch {
            throw OpenAPIError(error, file: url)
        }
        files[url] = document
        return document
    }

    /// The value at `location`; an error at `location` when it has none.
    public mutating func value(at location: OpenAPILocation) throws(OpenAPIError) -> YAMLValue {
        let document = try document(at: location.file)
        do {
            return try location.pointer.evaluate(in: document)
        } catch {
            throw OpenAPIError("nothing is there: \(error)", at: location)
        }
    }

    /// Where the `$ref` text `reference` of the object at `site` leads, checked to exist (its
    /// file is loaded). Errors are at `site`'s `$ref` member.
    public mutating func target(of reference: String, at site: OpenAPILocation) throws(OpenAPIError)
        -> OpenAPILocation
    {
        let refSite = site.appending("$ref")
        let quoted = "'\(reference.prefix(200))'"
        let hash = reference.firstIndex(of: "#")
        let path = String(reference[..<(hash ?? reference.endIndex)])
        let fragment = hash.map { String(reference[$0...]) } ?? "#"
        var file = site.file
        if let scheme = Self.scheme(of: path) {
            guard scheme == "file", let url = URL(string: path), url.isFileURL else {
                let why =
                    scheme == "http" || scheme == "https"
                    ? "remote references are not followed (no network): keep the file next to the document"
                    : "only relative references and file: URLs are followed"
                throw OpenAPIError("the $ref \(quoted) is not followed: \(why)", at: refSite)
            }
            file = Self.canonical(url)
        } else if !path.isEmpty {
            let decoded = path.removingPercentEncoding ?? path
            file = Self.canonical(URL(fileURLWithPath: decoded, relativeTo: site.file.deletingLastPathComponent()))
        }
        let pointer: JSONPointer
        do {
            pointer = try JSONPointer(parsing: fragment)
        } catch {
            throw OpenAPIError("the $ref \(quoted) has no JSON pointer fragment: \(error)", at: refSite)
        }
        let document: YAMLValue
        do {
            document = try self.document(at: file)
        } catch  where error.yamlError == nil {
            throw OpenAPIError("the $ref \(quoted) cannot be followed: \(error.message) (\(file.path))", at: refSite)
        }
        do {
            _ = try pointer.evaluate(in: document)
        } catch {
            throw OpenAPIError("the $ref \(quoted) has no target: \(error)", at: refSite)
        }
        return OpenAPILocation(file: file, pointer: pointer)
    }

    /// `value` (at `location`) with its `$ref`s followed: the first value of the chain that is
    /// not a `$ref`, and where it is. A cycle, or a chain longer than the limit, is an error at
    /// the first `$ref`.
    public mutating func resolve(_ value: YAMLValue, at location: OpenAPILocation) throws(OpenAPIError)
        -> (value: YAMLValue, location: OpenAPILocation)
    {
        var value = value
        var current = location
        var visited: [OpenAPILocation] = [location]
        while let reference = Self.reference(in: value) {
            guard visited.count <= limits.maximumReferenceChain else {
                throw OpenAPIError(
                    "the chain of $refs is longer than \(limits.maximumReferenceChain)", at: location.appending("$ref"))
            }
            let target = try self.target(of: reference, at: current)
            if visited.contains(target) {
                let cycle = (visited + [target]).map(\.description).joined(separator: " → ")
                throw OpenAPIError("the $refs form a cycle: \(cycle)", at: location.appending("$ref"))
            }
            visited.append(target)
            value = try self.value(at: target)
            current = target
        }
        return (value, current)
    }

    /// The lowercased URI scheme of `reference` (`http`), if it has one.
    static func scheme(of reference: String) -> String? {
        guard let colon = reference.firstIndex(of: ":") else { return nil }
        let scheme = reference[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return scheme.lowercased()
    }
}
