# Sourced by Scripts/test after servers.sh: the ThreadSanitizer run and the leak check, both
# against the test servers Scripts/test started. Defines functions only.

# Every library and integration test runs under ThreadSanitizer but these: the memory-growth one,
# whose resident sizes mean nothing under TSan's shadow memory, and the 1 GiB `Content-Length`
# fault, which checks how much the server managed to send before the client refused the head:
# under TSan the refusal still comes (the delegate answers `.cancel`), but FoundationNetworking
# reads the whole body from the loopback meanwhile; a question of speed, not of races. Nor the
# guides' programs (DocBlocksRunTests) nor the OpenAPI import's generated ones
# (OpenAPIGeneratedCodeTests): linked with TSan's objects they would need its runtime too.
# WEBSERVICEKIT_TSAN_FILTER replaces the filter (a `swift test --filter` pattern).
TSAN_FILTER='^WebServiceKit(Tests|IntegrationTests)\.'
TSAN_SKIP=(MemoryGrowthTests 'FaultMatrixTests/testHugeBodyOverTheLimit$' DocBlocksRunTests OpenAPIGeneratedCodeTests)

# What the leak check runs under valgrind: the long run of calls, the stress test, and the unit
# tests of the client, the cache and the single-flight provider; fewer calls than the plain run,
# since valgrind runs code some 20 to 50 times slower.
LEAK_TESTS=(
    WebServiceKitIntegrationTests.MemoryGrowthTests
    WebServiceKitIntegrationTests.ConcurrencyStressTests
    WebServiceKitTests.ClientBehaviourTests
    WebServiceKitTests.CachingTransportTests
    WebServiceKitTests.MemoryCacheStoreTests
    WebServiceKitTests.SingleFlightProviderTests
)

# The HTTP/1.1 transport's suites that Scripts/test runs once more through its blocking driver
# (WEBSERVICEKIT_HTTP1_THREADS=1, BlockingExchange): not the suites about the event loop itself
# (threads per call, one descriptor per connection, the loop's own sockets).
BLOCKING_DRIVER_SUITES="PooledConnectionTests|PlainHTTPMethodTests|KeepAliveTests|HostileServerTests"
BLOCKING_DRIVER_SUITES+="|HostileFramingTests|FaultMatrixTests|FileDownloadIntegrationTests|DirectUploadTests"
BLOCKING_DRIVER_SUITES+="|StreamingIntegrationTests|EncodedResponseTests|CallMetricsIntegrationTests|BridgeIntegrationTests"
BLOCKING_DRIVER_SUITES+="|ChaosSoakTests"

# Builds the tests with ThreadSanitizer into .build-tsan (its own scratch path: the plain build
# stays as it is) and runs them; the first data race reported fails the run (halt_on_error).
# Tests/Sanitizers/tsan.supp lists the reports that are not races, each with its reason.
tsan_check() {
    local scratch="$REPO_ROOT/.build-tsan"
    log "ThreadSanitizer: building the tests into .build-tsan"
    # Called in an `if`, where `set -e` does not apply: a failed build must not run an old binary.
    swift build --build-tests --sanitize=thread --scratch-path "$scratch" || return 1
    log "ThreadSanitizer: running them"
    # The chaos soak with fewer calls (2,000 a round): TSan's shadow bookkeeping makes each call
    # several times dearer, and races show in the first thousands as in the last.
    WEBSERVICEKIT_CHAOS_CALLS=${WEBSERVICEKIT_CHAOS_CALLS:-2000} TSAN_OPTIONS="halt_on_error=1 suppressions=$REPO_ROOT/Tests/Sanitizers/tsan.supp ${TSAN_OPTIONS:-}" \
        swift test --skip-build --sanitize=thread --scratch-path "$scratch" --disable-swift-testing \
        --filter "${WEBSERVICEKIT_TSAN_FILTER:-$TSAN_FILTER}" "${TSAN_SKIP[@]/#/--skip=}" || return 1
    # And the blocking driver (an exchange on the connection's queue while the call's task waits
    # and may cancel it), in a full run.
    [ -n "${WEBSERVICEKIT_TSAN_FILTER:-}" ] && return 0
    log "ThreadSanitizer: the HTTP/1.1 suites through the blocking driver"
    WEBSERVICEKIT_HTTP1_THREADS=1 WEBSERVICEKIT_CHAOS_CALLS=${WEBSERVICEKIT_CHAOS_CALLS:-2000} \
        TSAN_OPTIONS="halt_on_error=1 suppressions=$REPO_ROOT/Tests/Sanitizers/tsan.supp ${TSAN_OPTIONS:-}" \
        swift test --skip-build --sanitize=thread --scratch-path "$scratch" --disable-swift-testing \
        --filter "$BLOCKING_DRIVER_SUITES" "${TSAN_SKIP[@]/#/--skip=}"
}

# Installs valgrind (a Debian package) when it is missing.
ensure_valgrind() {
    command -v valgrind >/dev/null && return
    log "installing valgrind"
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq valgrind >/dev/null
}

# Runs LEAK_TESTS from the plain debug build under valgrind's memcheck and fails on any definite
# leak that Tests/Sanitizers/valgrind.supp does not explain (Foundation's and XCTest's own).
leak_check() {
    if [ "$(uname -s)" != Linux ]; then
        log "leak check: valgrind runs on Linux only; skipped"
        return
    fi
    ensure_valgrind || return 1
    local binary
    binary="$(swift build --show-bin-path)/WebServiceKitPackageTests.xctest" || return 1
    local tests
    tests=$(IFS=,; echo "${LEAK_TESTS[*]}")
    log "leak check: ${LEAK_TESTS[*]} under valgrind"
    # MemoryGrowthTests checks its bound on resident size in the plain run only: here the size
    # also holds memcheck's queue of freed blocks.
    WEBSERVICEKIT_STRESS_CALLS=1000 WEBSERVICEKIT_MEMORY_CALLS=2000 WEBSERVICEKIT_UNDER_VALGRIND=1 \
        valgrind --quiet --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite \
        --undef-value-errors=no --error-exitcode=86 --num-callers=40 \
        --suppressions="$REPO_ROOT/Tests/Sanitizers/valgrind.supp" "$binary" "$tests"
}
