// What Progress.md's prose stands for: the app's documents folder (the folder the program runs in)
// and its progress bar.
let documents = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
let bar: ProgressHandler = { fraction, _ in print(fraction) }
