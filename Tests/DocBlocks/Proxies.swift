// What Proxies.md's prose stands for: the proxy's host and port (when the blocks run, the local
// tinyproxy's).
// replace: http://proxy.example:3128 => $WEBSERVICEKIT_PROXY_URL
let proxy = URL(string: "http://proxy.example:3128")!
let proxyHost = proxy.host!
let proxyPort = proxy.port!

// MARK: userRepos
// Getting Started's typed `userRepos`, which the guide calls. The shared context's untyped one
// stays beside it: the client's methods pick the typed form for these arguments.
extension TypedCall where Arguments == ArgumentList<String, String>, Body == NoBody, Response == [Repo] {
    static let userRepos = TypedCall(.init(name: "userRepos", relativePath: "users/%%0%%/repos?sort=%%1%%"))
}

// MARK: end
