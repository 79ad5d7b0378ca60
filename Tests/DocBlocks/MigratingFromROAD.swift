// What MigratingFromROAD.md's later blocks assume: a client with a cache, as its first example
// makes one (that example's `client` is local to its block; the later blocks use the shared one).
client.cache = HTTPCache(memoryLimit: 20 << 20)
