// webservice-gen: ifacegen JSON IDL and HTTPIDL files in, WebServiceKit Swift out.
import Foundation
import WebServiceGenKit

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
}

let command: GeneratorCommand
do {
    command = try GeneratorCommand.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail("webservice-gen: \(error)\n\n\(GeneratorCommand.usage)", status: 2)
}
if command.showsHelp {
    print(GeneratorCommand.usage)
    exit(0)
}

let swift: String
do {
    swift = try WebServiceGenerator(options: command.options).generate(command.inputs)
} catch {
    fail(error.description, status: 1)
}

guard let output = command.output else {
    FileHandle.standardOutput.write(Data(swift.utf8))
    exit(0)
}
// Leaves an unchanged file alone, so a build does not recompile it.
if FileManager.default.contents(atPath: output) != Data(swift.utf8) {
    do {
        try Data(swift.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
    } catch {
        fail("error: cannot write '\(output)': \(error.localizedDescription)", status: 1)
    }
}
