// What TypedCalls.md's prose stands for: where a report is saved (the folder the program runs in).
let reportURL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("report.csv")
