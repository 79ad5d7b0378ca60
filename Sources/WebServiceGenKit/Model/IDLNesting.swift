/// How deep types and JSON values may nest in an IDL file.
public enum IDLNesting {
    /// The deepest nesting either reader accepts: 32 levels of JSON arrays and objects in an
    /// ifacegen file (the file's own `{"iface": [{…}]}` included), or of `ARRAY<…>` and `DICT<…>`
    /// in an HTTPIDL type. Deeper input is an ``IDLError`` at the place where the nesting passes
    /// the limit (`nesting deeper than the maximum depth of 32`), and nothing is generated.
    ///
    /// The readers and every later step (resolving names, writing Swift) recurse once per level,
    /// so the limit keeps a hostile or generated file from exhausting the stack. In an unoptimized
    /// build a level of nested ifacegen objects takes about 5.5 KiB of stack (96 levels do not fit
    /// a 512 KiB stack, a Task's on Apple platforms), and twice that under ThreadSanitizer (64 do
    /// not fit): 32 levels leave room for the rest of the call. Hand-written interfaces nest a
    /// few levels.
    ///
    /// An `extends` chain is limited to as many structs, the struct itself included.
    public static let maximumDepth = 32

    /// The longest chain of ifacegen imports (a file that imports a file that imports…), the
    /// first file included: 16. A longer chain is an ``IDLError`` at the import that passes it.
    ///
    /// Reading recurses once per file of the chain, and the last file is read at the bottom of
    /// it: 16 files and a last one nested ``maximumDepth`` levels deep are read on a 512 KiB
    /// stack in an unoptimized build.
    public static let maximumImportDepth = 16

    /// The error for nesting past ``maximumDepth`` at `location`.
    static func tooDeep(at location: SourceLocation) -> IDLError {
        IDLError("nesting deeper than the maximum depth of \(maximumDepth)", at: location)
    }
}
