"""A TLS server (Python's ssl, over the system's OpenSSL) that ends its answers in the ways a
client must tell apart (Scripts/lib/servers.sh, start_tls_truncating_server). Every answer is a
body framed by the connection's end (no Content-Length, RFC 9112 section 6.3), or cut short:

  /close-notify     the body, then TLS close_notify, then the close: the body is whole
  /no-close-notify  the body, then the TCP close without close_notify: the body may be cut short
  /length-cut       Content-Length 5000, 100 bytes, then close_notify: incomplete whatever TLS says

one that ends the process of a client on FoundationNetworking (any method, any body):

  /trailer          200, chunked: the request's body as one chunk, then a trailer field
                    (RFC 9112 section 7.1.2), then close_notify

and two that watch the client's end of a kept-alive connection:

  /keep?tag=T       200 "kept" with a Content-Length, then waits for the client to close: records
                    for T whether close_notify came first
  /closed?tag=T     what was recorded for T ("close_notify" or "no close_notify"), waiting up
                    to 20 s for it ("pending" after that)

and one that breaks the record layer after the handshake:

  /oversized-record a TLS application-data record header announcing 18,433 bytes (more than
                    RFC 8446 section 5.2 allows: 2^14 + 256), then that many bytes

Two more listeners misbehave before any HTTP:

  stall             accepts, reads the ClientHello and never answers (a handshake that stalls)
  legacy            a TLS server that offers only TLS 1.0 and 1.1 (a client must refuse it)
  mutual            a TLS server that requires a client certificate the CA (ca.pem beside the
                    chain) signed, and answers "client CN" with its subject's common name
  long-chain        a TLS server whose chain is a leaf and 101 intermediates (long-chain/ beside
                    the chain, Scripts/lib/servers.sh make_long_chain), answering "ok"

Usage: tls_truncating_server.py CERT_CHAIN KEY PORT_FILE (the main port is written there once
every listener listens; the others to PORT_FILE.stall, PORT_FILE.legacy, PORT_FILE.mutual and
PORT_FILE.long-chain).
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


def read_head(tls):
    """The request's head (and what came after it); None when the client ended first."""
    request = b""
    while b"\r\n\r\n" not in request:
        chunk = tls.recv(4096)
        if not chunk:
            return None
        request += chunk
    return request


def serve(context, raw):
    # A TCP end without close_notify raises here instead of reading as an end.
    tls = context.wrap_socket(raw, server_side=True, suppress_ragged_eofs=False)
    request = read_head(tls)
    if request is None:
        return
    target = request.split(b" ")[1].decode()
    path, _, query = target.partition("?")
    tag = query.partition("tag=")[2]
    if path == "/trailer":
        head, _, body = request.partition(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        while len(body) < length:
            chunk = tls.recv(65536)
            if not chunk:
                return
            body += chunk
        chunk = body or b"empty"
        tls.sendall(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            + b"%x\r\n%s\r\n0\r\nX-Trailer: t\r\n\r\n" % (len(chunk), chunk))
        tls.unwrap()
        return
    if path == "/oversized-record":
        length = 2**14 + 256 + 1
        # The record goes on the socket under TLS (wrap_socket detached `raw`: a duplicate of
        # the TLS socket's descriptor): the client's record layer must refuse it.
        under = socket.socket(fileno=os.dup(tls.fileno()))
        try:
            under.sendall(bytes([0x17, 0x03, 0x03, length >> 8, length & 0xFF]) + b"\x00" * length)
            # Wait for the client to give up, so that its verdict is the record's, not the close's.
            under.settimeout(10)
            while under.recv(4096):
                pass
        finally:
            under.close()
        return
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
        answer(tls, b"ok\n")
        tls.unwrap()


def stall(context, raw):
    """Reads what comes and never answers, until the client gives up."""
    raw.settimeout(120)
    while raw.recv(4096):
        pass


def legacy(context, raw):
    """A handshake offering only TLS 1.0 and 1.1: it fails for any client that asks for 1.2."""
    context.wrap_socket(raw, server_side=True).close()


def mutual(context, raw):
    """Requires a client certificate; answers with its subject's common name."""
    tls = context.wrap_socket(raw, server_side=True)
    if read_head(tls) is None:
        return
    subject = dict(item for pair in tls.getpeercert()["subject"] for item in pair)
    answer(tls, ("client %s" % subject.get("commonName", "?")).encode())
    tls.unwrap()


def handle(handler, context, raw):
    """Runs one connection's handler; a client that breaks the exchange only ends it."""
    try:
        raw.settimeout(10)
        handler(context, raw)
    except (OSError, ssl.SSLError, KeyError, TypeError):
        pass
    finally:
        raw.close()


def listen():
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    return listener


def accept(listener, context, handler):
    while True:
        raw, _ = listener.accept()
        threading.Thread(target=handle, args=(handler, context, raw), daemon=True).start()


def write_port(path, listener):
    with open(path + ".tmp", "w") as file:
        file.write(str(listener.getsockname()[1]))
    os.rename(path + ".tmp", path)


def main():
    chain, key, port_file = sys.argv[1:4]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(chain, key)
    old = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    # OpenSSL 3 allows TLS below 1.2 only at security level 0.
    old.set_ciphers("DEFAULT:@SECLEVEL=0")
    old.minimum_version = ssl.TLSVersion.TLSv1
    old.maximum_version = ssl.TLSVersion.TLSv1_1
    old.load_cert_chain(chain, key)
    requiring = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    requiring.load_cert_chain(chain, key)
    requiring.verify_mode = ssl.CERT_REQUIRED
    requiring.load_verify_locations(os.path.join(os.path.dirname(chain), "ca.pem"))
    long_chain = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    directory = os.path.join(os.path.dirname(chain), "long-chain")
    long_chain.load_cert_chain(os.path.join(directory, "chain.pem"), os.path.join(directory, "leaf.key"))
    suffixes = (".stall", ".legacy", ".mutual", ".long-chain")
    listeners = {suffix: listen() for suffix in ("",) + suffixes}
    handlers = {
        "": (context, serve), ".stall": (None, stall), ".legacy": (old, legacy), ".mutual": (requiring, mutual),
        ".long-chain": (long_chain, serve),
    }
    for suffix in suffixes:
        write_port(port_file + suffix, listeners[suffix])
        threading.Thread(target=accept, args=(listeners[suffix], *handlers[suffix]), daemon=True).start()
    # The main port last: once it is there, every listener listens.
    write_port(port_file, listeners[""])
    accept(listeners[""], context, serve)


if __name__ == "__main__":
    main()
