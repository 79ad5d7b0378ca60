/// How deep types and JSON values may nest in an IDL file.
public enum IDLNesting {
    /// The deepest nesting either reader accepts: 128 levels of JSON arrays and objects (IfaceGen)
    /// or of `ARRAY<…>`/`DICT<…>` types (HTTPIDL). Deeper input is an ``IDLError`` at the place
    /// where the nesting passes the limit.
    ///
    /// The readers and every later step (resolving names, writing Swift) recurse once per level,
    /// so the limit keeps a hostile or generated file from exhausting the stack: 128 levels fit a
    /// 512 KiB stack in an unoptimized build. Hand-written interfaces nest a few levels.
    public static let maximumDepth = 128

    /// The error for nesting past ``maximumDepth`` at `location`.
    static func tooDeep(at location: SourceLocation) -> IDLError {
        IDLError("nesting deeper than the maximum depth of \(maximumDepth)", at: location)
    }
}
