"""A TLS server (Python's ssl, over the system's OpenSSL) that ends its answers in the ways a
client must tell apart (Scripts/lib/servers.sh, start_tls_truncating_server). Every answer is a
body framed by the connection's end (no Content-Length, RFC 9112 section 6.3), or cut short:

  /close-notify     the body, then TLS close_notify, then the close: the body is whole
  /no-close-notify  the body, then the TCP close without close_notify: the body may be cut short
  /length-cut       Content-Length 5000, 100 bytes, then close_notify: incomplete whatever TLS says

Usage: tls_truncating_server.py CERT_CHAIN KEY PORT_FILE (the port is written there once it
listens).
"""

import os
import socket
import ssl
import sys
import threading

BODY = b"partial body " * 100


def serve(context, raw):
    try:
        raw.settimeout(10)
        tls = context.wrap_socket(raw, server_side=True)
        request = b""
        while b"\r\n\r\n" not in request:
            chunk = tls.recv(4096)
            if not chunk:
                return
            request += chunk
        path = request.split(b" ")[1]
        if path == b"/close-notify":
            tls.sendall(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + BODY)
            tls.unwrap()
        elif path == b"/no-close-notify":
            tls.sendall(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + BODY)
            # SSLSocket.close() closes the descriptor without a TLS shutdown.
            tls.close()
        elif path == b"/length-cut":
            tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 5000\r\nConnection: close\r\n\r\n" + BODY[:100])
            tls.unwrap()
        else:
            tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\nConnection: close\r\n\r\nok\n")
            tls.unwrap()
    except (OSError, ssl.SSLError):
        pass
    finally:
        raw.close()


def main():
    chain, key, port_file = sys.argv[1:4]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(chain, key)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    with open(port_file + ".tmp", "w") as file:
        file.write(str(listener.getsockname()[1]))
    os.rename(port_file + ".tmp", port_file)
    while True:
        raw, _ = listener.accept()
        threading.Thread(target=serve, args=(context, raw), daemon=True).start()


if __name__ == "__main__":
    main()
