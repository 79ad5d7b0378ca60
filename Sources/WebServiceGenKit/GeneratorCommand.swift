/// The `webservice-gen` command line, parsed by hand (the package has no dependencies).
///
/// `webservice-gen --input GooglePlaces.json [--input Notes.http] [--output Generated.swift]
/// [--access public|package|internal] [--namespace Name]`; inputs may also be given without
/// `--input`, and `--name=value` works as well as `--name value`.
///
/// `webservice-gen openapi DOCUMENT [--output Generated.swift] [--access …] [--namespace Name]`
/// reads one OpenAPI 3.0 or 3.1 document (YAML or JSON) instead.
public struct GeneratorCommand: Sendable, Equatable {
    /// What the inputs are.
    public enum Mode: Sendable, Equatable {
        /// ifacegen JSON IDL and HTTPIDL files.
        case idl
        /// One OpenAPI document (`webservice-gen openapi DOCUMENT`).
        case openAPI
    }

    /// What the inputs are; `.idl` unless the first argument is `openapi`.
    public var mode = Mode.idl
    /// The input files, in order.
    public var inputs: [String] = []
    /// The Swift file to write; `nil` writes to standard output.
    public var output: String?
    /// With `openapi`: the folder to write the Swift into as several files (`--output-directory`).
    public var outputDirectory: String?
    /// How the Swift is written.
    public var options = GeneratorOptions()
    /// Whether `--help` was given.
    public var showsHelp = false

    /// A command line that cannot be run.
    public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong.
        public let message: String
        public var description: String { message }
    }

    /// The help text.
    public static let usage = """
        USAGE: webservice-gen --input <file> [--input <file> ...] [--output <file>]
                              [--access public|package|internal] [--namespace <name>]
               webservice-gen openapi <document> [--output <file> | --output-directory <folder>]
                              [--access public|package|internal] [--namespace <name>]

        Reads ifacegen JSON IDL (.json) and HTTPIDL (.http) files, or one OpenAPI 3.0 or 3.1
        document (YAML or JSON, with the files its $refs reach), and writes one Swift file of
        Codable models and WebServiceCall or TypedCall descriptors for WebServiceKit.

        OPTIONS:
          -i, --input <file>      An input file (repeatable; bare arguments are inputs too).
          -o, --output <file>     The Swift file to write (standard output without it).
          --output-directory <folder>
                                  With openapi: write several files (NAMEModels1.swift…,
                                  NAMECalls1.swift…, NAMESupport.swift), as a large document
                                  needs (Swift compiles one large file slowly).
          --access <level>        public, package or internal (default: internal).
          --namespace <name>      Put the model types in `enum <name>`.
          -h, --help              Show this help.

        Errors are printed as file:line:column: error: message (an OpenAPI document's as
        file#/json/pointer: message), and the exit status is 1 (2 for a bad command line). What
        an OpenAPI document has that the Swift leaves out is printed as a warning.
        """

    /// Creates an empty command.
    public init() {}

    /// Parses the arguments that follow the program name.
    public static func parse(_ arguments: [String]) throws(UsageError) -> GeneratorCommand {
        var command = GeneratorCommand()
        var remaining = arguments[...]
        if remaining.first == "openapi" {
            command.mode = .openAPI
            remaining.removeFirst()
        }
        while let argument = remaining.popFirst() {
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst() else { throw UsageError(message: "\(name) needs a value") }
                return next
            }
            switch name {
            case "-h", "--help":
                command.showsHelp = true
            case "-i", "--input":
                command.inputs.append(try value())
            case "-o", "--output":
                guard command.output == nil else { throw UsageError(message: "--output is given twice") }
                command.output = try value()
            case "--output-directory":
                guard command.outputDirectory == nil else {
                    throw UsageError(message: "--output-directory is given twice")
                }
                command.outputDirectory = try value()
            case "--access":
                let text = try value()
                guard let access = GeneratorOptions.Access(rawValue: text) else {
                    throw UsageError(message: "--access must be public, package or internal, not '\(text)'")
                }
                command.options.access = access
            case "--namespace":
                command.options.namespace = try value()
            case "--":
                command.inputs += remaining
                remaining = []
            default:
                if argument.hasPrefix("-") { throw UsageError(message: "unknown option '\(argument)'") }
                command.inputs.append(argument)
            }
        }
        if command.inputs.isEmpty, !command.showsHelp {
            throw UsageError(
                message: command.mode == .openAPI
                    ? "no OpenAPI document (give webservice-gen openapi <document>)"
                    : "no input files (give --input <file>)")
        }
        if command.outputDirectory != nil, command.mode != .openAPI {
            throw UsageError(message: "--output-directory is for webservice-gen openapi")
        }
        if command.outputDirectory != nil, command.output != nil {
            throw UsageError(message: "give --output or --output-directory, not both")
        }
        if command.mode == .openAPI, command.inputs.count > 1 {
            throw UsageError(
                message:
                    "webservice-gen openapi reads one document (its $refs bring in the others); got \(command.inputs.count)"
            )
        }
        return command
    }
}
