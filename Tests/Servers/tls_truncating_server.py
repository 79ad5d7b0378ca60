"""A TLS server (Python's ssl, over the system's OpenSSL) that ends its answers in the ways a
client must tell apart (Scripts/lib/servers.sh, start_tls_truncating_server). Every answer is a
body framed by the connection's end (no Content-Length, RFC 9112 section 6.3), or cut short:

  /close-notify     the body, then TLS close_notify, then the close: the body is whole
  /no-close-notify  the body, then the TCP close without close_notify: the body may be cut short
  /length-cut       Content-Length 5000, 100 bytes, then close_notify: incomplete whatever TLS says

and two that watch the client's end of a kept-alive connection:

  /keep?tag=T       200 "kept" with a Content-Length, then waits for the client to close: records
                    for T whether close_notify came first
  /closed?tag=T     what was recorded for T ("close_notify" or "no close_notify"), waiting up
                    to 20 s for it ("pending" after that)

Usage: tls_truncating_server.py CERT_CHAIN KEY PORT_FILE (the port is written there once it
listens).
"""

import os
import socket
import ssl
import sys
import threading

BODY = b"partial body " * 100

# tag -> how the client ended its kept-alive connection, and an event set when it is known.
ENDS = {}
ENDS_LOCK = threading.Lock()


def end_of(tag):
    with ENDS_LOCK:
        return ENDS.setdefault(tag, [None, threading.Event()])


def answer(tls, body, keep=False):
    connection = b"keep-alive" if keep else b"close"
    tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: %s\r\n\r\n%s" % (len(body), connection, body))


def serve(context, raw):
    try:
        raw.settimeout(10)
        # A TCP end without close_notify raises here instead of reading as an end.
        tls = context.wrap_socket(raw, server_side=True, suppress_ragged_eofs=False)
        request = b""
        while b"\r\n\r\n" not in request:
            chunk = tls.recv(4096)
            if not chunk:
                return
            request += chunk
        target = request.split(b" ")[1].decode()
        path, _, query = target.partition("?")
        tag = query.partition("tag=")[2]
        if path == "/keep":
            answer(tls, b"kept", keep=True)
            tls.settimeout(120)
            try:
                ended = tls.recv(4096)
                how = "close_notify" if ended == b"" else "bytes after the answer"
            except TimeoutError:
                how = "still open after 120 s"
            except (ssl.SSLEOFError, ConnectionResetError, OSError):
                how = "no close_notify"
            record = end_of(tag)
            record[0] = how
            record[1].set()
            return
        if path == "/closed":
            record = end_of(tag)
            answer(tls, (record[0] if record[1].wait(20) else "pending").encode())
            tls.unwrap()
            return
        if path == "/close-notify":
            tls.sendall(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + BODY)
            tls.unwrap()
        elif path == "/no-close-notify":
            tls.sendall(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + BODY)
            # SSLSocket.close() closes the descriptor without a TLS shutdown.
            tls.close()
        elif path == "/length-cut":
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
