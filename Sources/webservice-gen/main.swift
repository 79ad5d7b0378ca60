// webservice-gen: ifacegen JSON IDL and HTTPIDL files, or an OpenAPI document, in; WebServiceKit Swift out.
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

/// Writes `text` to `path` unless the file already holds it (so a build does not recompile it).
func write(_ text: String, to path: String) {
    guard FileManager.default.contents(atPath: path) != Data(text.utf8) else { return }
    do {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
        fail("error: cannot write '\(path)': \(error.localizedDescription)", status: 1)
    }
}

let swift: String
switch command.mode {
case .idl:
    do {
        swift = try WebServiceGenerator(options: command.options).generate(command.inputs)
    } catch {
        fail(error.description, status: 1)
    }
case .openAPI:
    do {
        let generated = try OpenAPIGenerator(options: command.options)
            .generate(contentsOf: URL(fileURLWithPath: command.inputs[0]))
        for warning in generated.warnings {
            FileHandle.standardError.write(
                Data(
                    "\(warning.location.file.path)\(warning.location.pointer.fragment): warning: \(warning.message)\n"
                        .utf8))
        }
        if let folder = command.outputDirectory {
            let files = generated.files()
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                // Files of an earlier, larger generation would declare the same types again.
                let names = Set(files.map(\.name))
                let prefix = generated.filePrefix
                for old in try FileManager.default.contentsOfDirectory(atPath: folder)
                where old.hasPrefix(prefix) && old.hasSuffix(".swift") && !names.contains(old) {
                    let middle = old.dropFirst(prefix.count).dropLast(".swift".count)
                    if (middle.hasPrefix("Models") || middle.hasPrefix("Calls")),
                        middle.drop(while: { $0.isLetter }).allSatisfy(\.isNumber)
                    {
                        try FileManager.default.removeItem(atPath: (folder as NSString).appendingPathComponent(old))
                    }
                }
            } catch {
                fail("error: cannot write into '\(folder)': \(error.localizedDescription)", status: 1)
            }
            for file in files { write(file.source, to: (folder as NSString).appendingPathComponent(file.name)) }
            exit(0)
        }
        swift = generated.source
    } catch {
        fail(error.description, status: 1)
    }
}

guard let output = command.output else {
    FileHandle.standardOutput.write(Data(swift.utf8))
    exit(0)
}
write(swift, to: output)
