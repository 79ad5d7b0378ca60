# Shared by Scripts/test, Scripts/demo and Scripts/bench: make the Python virtual environment
# with the pinned test servers, start them on free ports of 127.0.0.1, stop them on exit.
# Source it; it defines functions only.

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
VENV="$REPO_ROOT/.venv-servers"
SERVER_PIDS=()
SERVER_LOG_DIR="${TMPDIR:-/tmp}/webservicekit-servers.$$"

log() { printf '[%s] %s\n' "$(basename "$0")" "$*" >&2; }

MULTIPART_VENV="$REPO_ROOT/.venv-multipart"
ODATA_VENV="$REPO_ROOT/.venv-odata"
JSONRPC_VENV="$REPO_ROOT/.venv-jsonrpc"
DIFFERENTIAL_VENV="$REPO_ROOT/.venv-differential"
MULTIPART_NAMES_VENV="$REPO_ROOT/.venv-multipart-names"
OPENAPI_VENV="$REPO_ROOT/.venv-openapi"

# Creates virtual environment $1 from requirements file $2 when missing or when the file changed.
make_venv() {
    local venv=$1 requirements=$2
    local stamp="$venv/.requirements.sha256"
    local want
    want=$(sha256sum "$requirements" | cut -d' ' -f1)
    if [ -x "$venv/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
        return
    fi
    log "creating the virtual environment $(basename "$venv")"
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
    echo "$want" >"$stamp"
}

# The httpbin environment (and, for the tests, the strict multipart parser's own one).
ensure_venv() {
    make_venv "$VENV" "$REPO_ROOT/Tests/Servers/requirements-httpbin.txt"
}

ensure_multipart_venv() {
    make_venv "$MULTIPART_VENV" "$REPO_ROOT/Tests/Servers/requirements-multipart.txt"
}

# The OData fixture's environment: odatapy, pinned in Tests/Servers/requirements-odata.txt.
ensure_odata_venv() {
    make_venv "$ODATA_VENV" "$REPO_ROOT/Tests/Servers/requirements-odata.txt"
}

# The JSON-RPC server's environment: json-rpc, pinned in Tests/Servers/requirements-jsonrpc.txt.
ensure_jsonrpc_venv() {
    make_venv "$JSONRPC_VENV" "$REPO_ROOT/Tests/Servers/requirements-jsonrpc.txt"
}

# The differential test's reference HTTP/1.1 parser: h11, pinned in
# Tests/Servers/requirements-differential.txt.
ensure_differential_venv() {
    make_venv "$DIFFERENTIAL_VENV" "$REPO_ROOT/Tests/Servers/requirements-differential.txt"
}

# Werkzeug, Django and python-multipart for the multipart name tests, pinned in
# Tests/Servers/requirements-multipart-names.txt.
ensure_multipart_names_venv() {
    make_venv "$MULTIPART_NAMES_VENV" "$REPO_ROOT/Tests/Servers/requirements-multipart-names.txt"
}

# The validating OpenAPI server's environment: openapi-core and what it needs, pinned in
# Tests/Servers/requirements-openapi.txt.
ensure_openapi_venv() {
    make_venv "$OPENAPI_VENV" "$REPO_ROOT/Tests/Servers/requirements-openapi.txt"
}

# Installs the Debian package $2 when the command $1 is missing (nor in /usr/sbin); fails where
# apt-get cannot.
ensure_debian_package() {
    command -v "$1" >/dev/null && return
    [ -x "/usr/sbin/$1" ] && return
    command -v apt-get >/dev/null || return 1
    log "installing $2"
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq || return 1
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$2" >/dev/null
}

# Debian's PHP 8.2 command line, for its built-in web server (the PHP multipart name test).
ensure_php() { ensure_debian_package php php8.2-cli; }

# Debian's nginx, which serves TLS with the certificates the trust tests make.
ensure_nginx() { ensure_debian_package nginx nginx; }

# Debian's tinyproxy, the HTTP proxy of the proxy tests (absolute form and CONNECT).
ensure_tinyproxy() { ensure_debian_package tinyproxy tinyproxy; }

# Starts tinyproxy on a free port of 127.0.0.1 (in the foreground, logging to a file of its own)
# and exports its URL in the variable named $1; with $2 ("user:password") it asks for Basic
# credentials (407 without them), and the URL exported carries them.
start_tinyproxy() {
    local variable=$1 credentials=${2:-} name port conf tinyproxy
    name=$(echo "$variable" | tr 'A-Z' 'a-z')
    tinyproxy=$(command -v tinyproxy || echo /usr/bin/tinyproxy)
    mkdir -p "$SERVER_LOG_DIR"
    port=$(free_port)
    conf="$SERVER_LOG_DIR/$name.conf"
    {
        echo "Port $port"
        echo "Listen 127.0.0.1"
        echo "Timeout 60"
        echo "MaxClients 256"
        echo "LogLevel Info"
        # Each forwarded request says it came through (Via: 1.1 tinyproxy), which tests read.
        echo "ViaProxyName \"tinyproxy\""
        echo "DisableViaHeader No"
        echo "LogFile \"$SERVER_LOG_DIR/$name.log\""
        if [ -n "$credentials" ]; then echo "BasicAuth ${credentials%%:*} ${credentials#*:}"; fi
    } >"$conf"
    "$tinyproxy" -d -c "$conf" >>"$SERVER_LOG_DIR/$name.out" 2>&1 &
    SERVER_PIDS+=($!)
    local _
    for _ in $(seq 1 150); do
        if "$VENV/bin/python" -c "import socket,sys; socket.create_connection(('127.0.0.1', int(sys.argv[1])), 1)" \
            "$port" >/dev/null 2>&1; then
            export "$variable=http://${credentials:+$credentials@}127.0.0.1:$port"
            log "tinyproxy at 127.0.0.1:$port${credentials:+ (with Basic credentials)}"
            return 0
        fi
        sleep 0.1
    done
    log "tinyproxy did not start; its output:"
    cat "$SERVER_LOG_DIR/$name.out" >&2 || true
    return 1
}

# Prints a TCP port that is free on 127.0.0.1 now.
free_port() {
    "$VENV/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Waits until URL answers, or fails after about 30 seconds.
wait_for_url() {
    local url=$1 name=$2
    for _ in $(seq 1 150); do
        if "$VENV/bin/python" -c "import urllib.request,sys; urllib.request.urlopen(sys.argv[1], timeout=1)" "$url" \
            >/dev/null 2>&1; then
            return 0
        fi
        sleep 0.2
    done
    log "$name did not start; its log:"
    cat "$SERVER_LOG_DIR/$name.log" >&2 || true
    return 1
}

# Starts a server on a free port of 127.0.0.1: runs the command after the first three arguments,
# with @PORT@ in its arguments replaced by the port, logs to a file of its own, exports
# http://127.0.0.1:PORT/$2 in the variable named $1, and waits until path $3 answers.
start_server() {
    local variable=$1 root_path=$2 ready_path=$3
    shift 3
    local name port
    name=$(echo "$variable" | tr 'A-Z' 'a-z')
    mkdir -p "$SERVER_LOG_DIR"
    port=$(free_port)
    "${@//@PORT@/$port}" >"$SERVER_LOG_DIR/$name.log" 2>&1 &
    SERVER_PIDS+=($!)
    export "$variable=http://127.0.0.1:$port/$root_path"
    wait_for_url "http://127.0.0.1:$port/$ready_path" "$name"
    log "$name at http://127.0.0.1:$port/$root_path"
}

# Starts an httpbin and exports its URL in the variable named $1 (WEBSERVICEKIT_HTTPBIN_URL by
# default). A second one, on another port, is another origin.
start_httpbin() {
    # gthread workers: concurrent tests and slow endpoints (/delay) do not block one another.
    start_server "${1:-WEBSERVICEKIT_HTTPBIN_URL}" "" get \
        "$VENV/bin/gunicorn" --bind "127.0.0.1:@PORT@" --worker-class gthread --workers 1 --threads 48 \
        --timeout 120 httpbin:app
}

# Starts the strict multipart echo server and exports WEBSERVICEKIT_MULTIPART_URL.
start_multipart_echo() {
    start_server WEBSERVICEKIT_MULTIPART_URL "" "" \
        "$MULTIPART_VENV/bin/python" "$REPO_ROOT/Tests/Servers/multipart_echo.py" @PORT@
}

# Starts the in-memory OData v4.01 service (Tests/Servers/odata_fixture.py) and exports its
# service root, http://127.0.0.1:PORT/odata/, in the variable named $1 (WEBSERVICEKIT_ODATA_URL
# by default).
start_odata_fixture() {
    start_server "${1:-WEBSERVICEKIT_ODATA_URL}" odata/ 'odata/$metadata' \
        "$ODATA_VENV/bin/python" "$REPO_ROOT/Tests/Servers/odata_fixture.py" @PORT@
}

# Starts the JSON-RPC 2.0 server (Tests/Servers/jsonrpc_server.py) and exports its root,
# http://127.0.0.1:PORT/, in the variable named $1 (WEBSERVICEKIT_JSONRPC_URL by default); the
# endpoint is rpc below it.
start_jsonrpc_server() {
    start_server "${1:-WEBSERVICEKIT_JSONRPC_URL}" "" "" \
        "$JSONRPC_VENV/bin/python" "$REPO_ROOT/Tests/Servers/jsonrpc_server.py" @PORT@
}

# Starts the fault server (Tests/Servers/fault_server.py, standard library only), which misbehaves
# in one way per path, and exports its root, http://127.0.0.1:PORT/, in the variable named $1
# (WEBSERVICEKIT_FAULT_URL by default). A second one, on another port, is another origin.
start_fault_server() {
    start_server "${1:-WEBSERVICEKIT_FAULT_URL}" "" ok \
        python3 "$REPO_ROOT/Tests/Servers/fault_server.py" @PORT@
}

# Starts the streaming server (Tests/Servers/stream_server.py, standard library only), which sends
# Server-Sent Events and JSON lines slowly and cut at awkward places, and exports its root,
# http://127.0.0.1:PORT/, in the variable named $1 (WEBSERVICEKIT_STREAM_URL by default).
start_stream_server() {
    start_server "${1:-WEBSERVICEKIT_STREAM_URL}" "" ok \
        python3 "$REPO_ROOT/Tests/Servers/stream_server.py" @PORT@
}

# Starts the chaos server (Tests/Servers/chaos_server.py, standard library only), which misbehaves at
# random on every request and writes down what it did, and exports its root, http://127.0.0.1:PORT/,
# in the variable named $1 (WEBSERVICEKIT_CHAOS_URL by default); $2 seeds its choices (0).
start_chaos_server() {
    start_server "${1:-WEBSERVICEKIT_CHAOS_URL}" "" _stats \
        python3 "$REPO_ROOT/Tests/Servers/chaos_server.py" @PORT@ "${2:-0}"
}

# Starts the example API the guides' code blocks call when they run (Tests/Servers/docs_api_server.py,
# standard library only) and exports its root, http://127.0.0.1:PORT/, in WEBSERVICEKIT_DOCS_URL.
start_docs_api() {
    start_server WEBSERVICEKIT_DOCS_URL "" ok python3 "$REPO_ROOT/Tests/Servers/docs_api_server.py" @PORT@
}

# Starts the validating OpenAPI server (Tests/Servers/openapi_server.py): openapi-core checks each
# request against the document it is for and the server answers from the document. Every
# document of the folder $2 (Tests/WebServiceGenKitTests/Fixtures/OpenAPI/generate by default) is
# served under /NAME/ (its file name without the extension); exports the root,
# http://127.0.0.1:PORT/, in the variable named $1 (WEBSERVICEKIT_OPENAPI_URL by default).
start_openapi_server() {
    start_server "${1:-WEBSERVICEKIT_OPENAPI_URL}" "" _health \
        "$OPENAPI_VENV/bin/python" "$REPO_ROOT/Tests/Servers/openapi_server.py" \
        "${2:-$REPO_ROOT/Tests/WebServiceGenKitTests/Fixtures/OpenAPI/generate}" @PORT@
}

# Starts the server that parses multipart bodies with Werkzeug, Django or python-multipart (by
# path; Tests/Servers/multipart_names.py) and exports WEBSERVICEKIT_MULTIPART_NAMES_URL.
start_multipart_names() {
    start_server WEBSERVICEKIT_MULTIPART_NAMES_URL "" "" \
        "$MULTIPART_NAMES_VENV/bin/python" "$REPO_ROOT/Tests/Servers/multipart_names.py" @PORT@
}

# Starts PHP's built-in web server with Tests/Servers/multipart_names.php, which answers with
# what PHP's own form parser read, and exports WEBSERVICEKIT_PHP_MULTIPART_URL.
start_php_multipart() {
    start_server WEBSERVICEKIT_PHP_MULTIPART_URL "" "" \
        php -n -d file_uploads=1 -S "127.0.0.1:@PORT@" "$REPO_ROOT/Tests/Servers/multipart_names.php"
}

# Makes the server-trust tests' certificates in directory $1 with the openssl command line: a
# private CA; a leaf it signed for 127.0.0.1 and localhost; a self-signed leaf; an expired leaf
# the CA signed (valid for one day in 2020); a leaf the CA signed for wrong.example only. Each
# leaf's PEM chain (leaf, then CA) is NAME-chain.pem. Every key is P-256.
make_tls_certificates() {
    local dir=$1
    mkdir -p "$dir/ca-db"
    : >"$dir/ca-db/index.txt"
    echo 1000 >"$dir/ca-db/serial"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$dir/ca.key" \
        -out "$dir/ca.pem" -days 30 -subj "/CN=WebServiceKit Test CA" \
        -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
    openssl x509 -in "$dir/ca.pem" -outform der -out "$dir/ca.der"
    cat >"$dir/ca.cnf" <<EOF
[ca]
default_ca = test_ca
[test_ca]
database = $dir/ca-db/index.txt
serial = $dir/ca-db/serial
new_certs_dir = $dir/ca-db
certificate = $dir/ca.pem
private_key = $dir/ca.key
default_md = sha256
policy = anything
unique_subject = no
copy_extensions = copy
[anything]
commonName = supplied
EOF
    local name san
    local usage
    for name in leaf expired not-yet-valid wrong-host client; do
        usage=serverAuth
        case $name in
            wrong-host) san="DNS:wrong.example" ;;
            # The identity of the mutual-TLS tests.
            client) san="DNS:client.example" usage=clientAuth ;;
            *) san="IP:127.0.0.1,DNS:localhost" ;;
        esac
        openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$dir/$name.key" \
            -out "$dir/$name.csr" -subj "/CN=$name" -addext "subjectAltName=$san" \
            -addext "extendedKeyUsage=$usage" 2>/dev/null
        local dates=(-days 30)
        [ "$name" = expired ] && dates=(-startdate 20200101000000Z -enddate 20200102000000Z)
        [ "$name" = not-yet-valid ] && dates=(-startdate 20990101000000Z -enddate 20991231000000Z)
        openssl ca -batch -config "$dir/ca.cnf" -notext "${dates[@]}" -in "$dir/$name.csr" \
            -out "$dir/$name.pem" 2>/dev/null
        cat "$dir/$name.pem" "$dir/ca.pem" >"$dir/$name-chain.pem"
    done
    # The client's key again, encrypted (PKCS#8, AES-256): the passphrase is client-pass.
    openssl pkcs8 -topk8 -in "$dir/client.key" -passout pass:client-pass -out "$dir/client-encrypted.key" 2>/dev/null
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$dir/self-signed.key" \
        -out "$dir/self-signed.pem" -days 30 -subj "/CN=self-signed" \
        -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" 2>/dev/null
}

# The base64 SHA-256 of certificate file $1's SubjectPublicKeyInfo (DER), as openssl computes it:
# the value a pin names.
spki_sha256() {
    openssl x509 -in "$1" -noout -pubkey | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary |
        openssl base64 -A
}

# Starts nginx serving TLS on six free ports of 127.0.0.1 with the certificates
# make_tls_certificates makes (Tests/Servers/tls_nginx.conf.template), and exports
# WEBSERVICEKIT_TLS_URL (the CA-signed leaf), WEBSERVICEKIT_TLS_SELF_SIGNED_URL,
# WEBSERVICEKIT_TLS_EXPIRED_URL, WEBSERVICEKIT_TLS_WRONG_HOST_URL (each https://127.0.0.1:PORT/),
# WEBSERVICEKIT_TLS_STREAM_URL and WEBSERVICEKIT_TLS_HTTPBIN_URL (the CA-signed leaf in front of
# the stream server and httpbin: start those first, else these answer 502),
# WEBSERVICEKIT_TLS_DIR (the certificates: ca.pem, ca.der, leaf.pem, self-signed.pem…) and
# WEBSERVICEKIT_TLS_LEAF_SPKI_SHA256, WEBSERVICEKIT_TLS_CA_SPKI_SHA256 (openssl's pins).
start_tls_nginx() {
    local nginx dir good self_signed expired wrong_host stream httpbin
    nginx=$(command -v nginx || echo /usr/sbin/nginx)
    mkdir -p "$SERVER_LOG_DIR"
    dir="$SERVER_LOG_DIR/tls"
    mkdir -p "$dir"
    make_tls_certificates "$dir"
    mkdir -p "$dir/files"
    head -c 3145728 /dev/urandom >"$dir/files/three-mib.bin"
    # Six different ports (free_port may hand out a port twice when asked in a row).
    local ports=()
    while [ "${#ports[@]}" -lt 6 ]; do
        local port
        port=$(free_port)
        [[ " ${ports[*]} " == *" $port "* ]] || ports+=("$port")
    done
    good=${ports[0]}
    self_signed=${ports[1]}
    expired=${ports[2]}
    wrong_host=${ports[3]}
    stream=${ports[4]}
    httpbin=${ports[5]}
    # The upstreams without their trailing slash (nginx then passes each request's path as it is);
    # the discard port when a server was not started.
    local stream_upstream=${WEBSERVICEKIT_STREAM_URL:-http://127.0.0.1:9/} httpbin_upstream=${WEBSERVICEKIT_HTTPBIN_URL:-http://127.0.0.1:9/}
    sed -e "s|@DIR@|$dir|g" -e "s|@LOG@|$SERVER_LOG_DIR/tls-nginx.log|g" -e "s|@GOOD_PORT@|$good|g" \
        -e "s|@SELF_SIGNED_PORT@|$self_signed|g" -e "s|@EXPIRED_PORT@|$expired|g" \
        -e "s|@WRONG_HOST_PORT@|$wrong_host|g" -e "s|@STREAM_PORT@|$stream|g" -e "s|@HTTPBIN_PORT@|$httpbin|g" \
        -e "s|@STREAM_UPSTREAM@|${stream_upstream%/}|g" -e "s|@HTTPBIN_UPSTREAM@|${httpbin_upstream%/}|g" \
        "$REPO_ROOT/Tests/Servers/tls_nginx.conf.template" >"$dir/nginx.conf"
    "$nginx" -e "$SERVER_LOG_DIR/tls-nginx.log" -p "$dir" -c "$dir/nginx.conf" >>"$SERVER_LOG_DIR/tls-nginx.log" 2>&1 &
    SERVER_PIDS+=($!)
    export WEBSERVICEKIT_TLS_URL="https://127.0.0.1:$good/"
    export WEBSERVICEKIT_TLS_SELF_SIGNED_URL="https://127.0.0.1:$self_signed/"
    export WEBSERVICEKIT_TLS_EXPIRED_URL="https://127.0.0.1:$expired/"
    export WEBSERVICEKIT_TLS_WRONG_HOST_URL="https://127.0.0.1:$wrong_host/"
    export WEBSERVICEKIT_TLS_STREAM_URL="https://127.0.0.1:$stream/"
    export WEBSERVICEKIT_TLS_HTTPBIN_URL="https://127.0.0.1:$httpbin/"
    export WEBSERVICEKIT_TLS_DIR="$dir"
    WEBSERVICEKIT_TLS_LEAF_SPKI_SHA256=$(spki_sha256 "$dir/leaf.pem")
    WEBSERVICEKIT_TLS_CA_SPKI_SHA256=$(spki_sha256 "$dir/ca.pem")
    export WEBSERVICEKIT_TLS_LEAF_SPKI_SHA256 WEBSERVICEKIT_TLS_CA_SPKI_SHA256
    local _
    for _ in $(seq 1 150); do
        if python3 -c "import ssl,sys,urllib.request; urllib.request.urlopen(sys.argv[1], timeout=1, context=ssl.create_default_context(cafile=sys.argv[2]))" \
            "${WEBSERVICEKIT_TLS_URL}ok" "$dir/ca.pem" >/dev/null 2>&1; then
            log "tls nginx at $WEBSERVICEKIT_TLS_URL (with its self-signed, expired and wrong-host peers)"
            return 0
        fi
        sleep 0.2
    done
    log "tls nginx did not start; its log:"
    cat "$SERVER_LOG_DIR/tls-nginx.log" >&2 || true
    return 1
}

# Makes in $1/long-chain a root and a chain of 101 intermediates under it, each signing the next,
# and a leaf for 127.0.0.1 the last one signed: chain.pem holds the leaf and the 101 intermediates,
# one more than OpenSSL's default verification depth allows (100 intermediates).
make_long_chain() {
    local dir=$1/long-chain previous=root index
    mkdir -p "$dir"
    printf 'basicConstraints=critical,CA:TRUE\n' >"$dir/ca.ext"
    printf 'subjectAltName=IP:127.0.0.1\n' >"$dir/leaf.ext"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$dir/root.key" \
        -out "$dir/root.pem" -days 30 -subj "/CN=Long Chain Root" -addext "basicConstraints=critical,CA:TRUE" 2>/dev/null
    for index in $(seq 1 102); do
        local name="intermediate-$index" extension=ca.ext
        if [ "$index" = 102 ]; then name=leaf extension=leaf.ext; fi
        openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$dir/$name.key" \
            -out "$dir/$name.csr" -subj "/CN=$name" 2>/dev/null
        openssl x509 -req -in "$dir/$name.csr" -CA "$dir/$previous.pem" -CAkey "$dir/$previous.key" \
            -CAcreateserial -days 30 -extfile "$dir/$extension" -out "$dir/$name.pem" 2>/dev/null
        previous=$name
    done
    cat "$dir/leaf.pem" >"$dir/chain.pem"
    for index in $(seq 101 -1 1); do cat "$dir/intermediate-$index.pem" >>"$dir/chain.pem"; done
}

# Starts the TLS server that ends its answers with and without close_notify
# (Tests/Servers/tls_truncating_server.py) with the certificates of start_tls_nginx, and exports
# WEBSERVICEKIT_TLS_TRUNCATING_URL, WEBSERVICEKIT_TLS_STALL_URL (a handshake that never answers),
# WEBSERVICEKIT_TLS_LEGACY_URL (a server offering only TLS 1.0 and 1.1) and
# WEBSERVICEKIT_TLS_MUTUAL_URL (a server that requires a client certificate the CA signed) and
# WEBSERVICEKIT_TLS_LONG_CHAIN_URL (a server sending a chain of 101 intermediates, make_long_chain).
start_tls_truncating_server() {
    local dir="$SERVER_LOG_DIR/tls" port_file="$SERVER_LOG_DIR/tls-truncating.port"
    rm -f "$port_file" "$port_file.stall" "$port_file.legacy" "$port_file.mutual" "$port_file.long-chain"
    make_long_chain "$dir"
    python3 "$REPO_ROOT/Tests/Servers/tls_truncating_server.py" "$dir/leaf-chain.pem" "$dir/leaf.key" "$port_file" \
        >"$SERVER_LOG_DIR/tls-truncating.log" 2>&1 &
    SERVER_PIDS+=($!)
    local _
    for _ in $(seq 1 150); do
        if [ -s "$port_file" ]; then
            export WEBSERVICEKIT_TLS_TRUNCATING_URL="https://127.0.0.1:$(cat "$port_file")/"
            export WEBSERVICEKIT_TLS_STALL_URL="https://127.0.0.1:$(cat "$port_file.stall")/"
            export WEBSERVICEKIT_TLS_LEGACY_URL="https://127.0.0.1:$(cat "$port_file.legacy")/"
            export WEBSERVICEKIT_TLS_MUTUAL_URL="https://127.0.0.1:$(cat "$port_file.mutual")/"
            export WEBSERVICEKIT_TLS_LONG_CHAIN_URL="https://127.0.0.1:$(cat "$port_file.long-chain")/"
            log "tls truncating server at $WEBSERVICEKIT_TLS_TRUNCATING_URL"
            return 0
        fi
        sleep 0.1
    done
    log "the tls truncating server did not start; its log:"
    cat "$SERVER_LOG_DIR/tls-truncating.log" >&2 || true
    return 1
}

stop_servers() {
    for pid in "${SERVER_PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${SERVER_PIDS[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$SERVER_LOG_DIR"
}
