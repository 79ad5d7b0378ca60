// What Trust.md's prose stands for: the files of a private CA and a client identity, and a policy.
let caFile = URL(fileURLWithPath: "/etc/ssl/company-ca.pem")
let certificateFile = URL(fileURLWithPath: "/etc/ssl/client.pem")
let keyFile = URL(fileURLWithPath: "/etc/ssl/client.key")
let policy = ServerTrustPolicy.system
