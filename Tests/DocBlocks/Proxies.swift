// What Proxies.md's prose stands for: the proxy's host and port.
let proxyHost = "127.0.0.1"
let proxyPort = 3128
