/// The `webservice-gen` command line, parsed by hand (the package has no dependencies).
///
/// `webservice-gen --input GooglePlaces.json [--input Notes.http] [--output Generated.swift]
/// [--access public|package|internal] [--namespace Name]`; inputs may also be given without
/// `--input`, and `--name=value` works as well as `--name value`.
public struct GeneratorCommand: Sendable, Equatable {
    /// The input files, in order.
    public var inputs: [String] = []
    /// The Swift file to write; `nil` writes to standard output.
    public var output: String?
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

        Reads ifacegen JSON IDL (.json) and HTTPIDL (.http) files and writes one Swift file of
        Codable models and WebServiceCall descriptors for WebServiceKit.

        OPTIONS:
          -i, --input <file>      An input file (repeatable; bare arguments are inputs too).
          -o, --output <file>     The Swift file to write (standard output without it).
          --access <level>        public, package or internal (default: internal).
          --namespace <name>      Put the model types in `enum <name>`.
          -h, --help              Show this help.

        Errors are printed as file:line:column: error: message, and the exit status is 1
        (2 for a bad command line).
        """

    /// Creates an empty command.
    public init() {}

    /// Parses the arguments that follow the program name.
    public static func parse(_ arguments: [String]) throws(UsageError) -> GeneratorCommand {
        var command = GeneratorCommand()
        var remaining = arguments[...]
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
            throw UsageError(message: "no input files (give --input <file>)")
        }
        return command
    }
}
