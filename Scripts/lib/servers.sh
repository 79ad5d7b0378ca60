# Shared by Scripts/test, Scripts/demo and Scripts/bench: make the Python virtual environment
# with the pinned test servers, start them on free ports of 127.0.0.1, stop them on exit.
# Source it; it defines functions only.

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
VENV="$REPO_ROOT/.venv-servers"
SERVER_PIDS=()
SERVER_LOG_DIR="${TMPDIR:-/tmp}/webservicekit-servers.$$"

log() { printf '[%s] %s\n' "$(basename "$0")" "$*" >&2; }

# Creates the virtual environment when missing or when the requirements changed.
ensure_venv() {
    local requirements="$REPO_ROOT/Tests/Servers/requirements-httpbin.txt"
    local stamp="$VENV/.requirements.sha256"
    local want
    want=$(sha256sum "$requirements" | cut -d' ' -f1)
    if [ -x "$VENV/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
        return
    fi
    log "creating the test servers' virtual environment"
    rm -rf "$VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
    echo "$want" >"$stamp"
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
    "$VENV/bin/python" -m httpbin.core --host 127.0.0.1 --port "$port" >"$SERVER_LOG_DIR/$name.log" 2>&1 &
    SERVER_PIDS+=($!)
    export "$variable=http://127.0.0.1:$port/"
    wait_for_url "http://127.0.0.1:$port/get" "$name"
    log "httpbin at http://127.0.0.1:$port/ ($variable)"
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
