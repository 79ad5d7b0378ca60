// What Streaming.md's prose stands for: a completion service's prompt.
struct Prompt: Encodable, Sendable { let text: String }
