// What Progress.md's prose stands for: the app's documents folder and its progress bar.
let documents = FileManager.default.temporaryDirectory
let bar: ProgressHandler = { fraction, _ in print(fraction) }
