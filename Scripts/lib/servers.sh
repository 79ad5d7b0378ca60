# Shared by Scripts/test, Scripts/demo and Scripts/bench: make the Python virtual environment
# with the pinned test servers, start them on free ports of 127.0.0.1, stop them on exit.
# Source it; it defines functions only.

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
VENV="$REPO_ROOT/.venv-servers"
SERVER_PIDS=()
SERVER_LOG_DIR="${TMPDIR:-/tmp}/webservicekit-servers.$$"

log() { printf '[%s] %s\n' "$(basename "$0")" "$*" >&2; }

MULTIPART_VENV="$REPO_ROOT/.venv-multipart"

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

# Starts an httpbin on a free port of 127.0.0.1 and exports its URL in the variable named $1
# (WEBSERVICEKIT_HTTPBIN_URL by default). A second one, on another port, is another origin.
start_httpbin() {
    local variable=${1:-WEBSERVICEKIT_HTTPBIN_URL}
    local name
    name=$(echo "$variable" | tr 'A-Z' 'a-z')
    mkdir -p "$SERVER_LOG_DIR"
    local port
    port=$(free_port)
    # gthread workers: concurrent tests and slow endpoints (/delay) do not block one another.
    "$VENV/bin/gunicorn" --bind "127.0.0.1:$port" --worker-class gthread --workers 1 --threads 48 \
        --timeout 120 httpbin:app >"$SERVER_LOG_DIR/$name.log" 2>&1 &
    SERVER_PIDS+=($!)
    export "$variable=http://127.0.0.1:$port/"
    wait_for_url "http://127.0.0.1:$port/get" "$name"
    log "httpbin at http://127.0.0.1:$port/ ($variable)"
}

# Starts the strict multipart echo server and exports WEBSERVICEKIT_MULTIPART_URL.
start_multipart_echo() {
    mkdir -p "$SERVER_LOG_DIR"
    local port
    port=$(free_port)
    "$MULTIPART_VENV/bin/python" "$REPO_ROOT/Tests/Servers/multipart_echo.py" "$port" \
        >"$SERVER_LOG_DIR/multipart.log" 2>&1 &
    SERVER_PIDS+=($!)
    export WEBSERVICEKIT_MULTIPART_URL="http://127.0.0.1:$port/"
    wait_for_url "$WEBSERVICEKIT_MULTIPART_URL" multipart
    log "strict multipart parser at $WEBSERVICEKIT_MULTIPART_URL"
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
