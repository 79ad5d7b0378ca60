// What TypedCalls.md's prose stands for: where a report is saved.
let reportURL = FileManager.default.temporaryDirectory.appendingPathComponent("report.csv")
