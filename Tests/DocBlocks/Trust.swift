// What Trust.md's prose stands for: the files of a private CA and a client identity, and a policy.
// When the blocks run, the CA is the one that signed the local TLS nginx's certificate, which
// stands for the internal service, and the identity is the one the mutual-TLS tests present.
// replace: /etc/ssl/company-ca.pem => $WEBSERVICEKIT_TLS_DIR/ca.pem
// replace: /etc/ssl/client.pem => $WEBSERVICEKIT_TLS_DIR/client-chain.pem
// replace: /etc/ssl/client.key => $WEBSERVICEKIT_TLS_DIR/client-encrypted.key
// replace: "key passphrase" => "client-pass"
// replace: https://internal.example/ => $WEBSERVICEKIT_TLS_URL
let caFile = URL(fileURLWithPath: "/etc/ssl/company-ca.pem")
let certificateFile = URL(fileURLWithPath: "/etc/ssl/client.pem")
let keyFile = URL(fileURLWithPath: "/etc/ssl/client.key")
let policy = ServerTrustPolicy.system
