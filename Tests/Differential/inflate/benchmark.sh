#!/usr/bin/env bash
# Decoding throughput of ContentDecoder (gzip, -O) against zlib through python3, on a 10 MB gzip of
# English-like text, both fed the whole body or 64 KiB pieces. Run from anywhere: Tests/Differential/inflate/benchmark.sh [SIZE_MB]
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
WORK="${TMPDIR:-/tmp}/webservicekit-inflate-benchmark"
mkdir -p "$WORK"
SIZE_MB="${1:-10}"
python3 - "$WORK/text.gz" "$SIZE_MB" <<'PY'
import gzip, random, sys, time, zlib
rng = random.Random(19)
words = [bytes(rng.choice(b"etaoinshrdlucmfwypvbgkjqxz") for _ in range(rng.choice([1, 2, 2, 3, 3, 4, 5, 6, 7, 8, 10]))) for _ in range(5000)]
size = int(sys.argv[2]) * 1000 * 1000
parts, total = [], 0
while total < size:
    sentence = b" ".join(rng.choice(words) for _ in range(rng.randint(4, 20))).capitalize() + b".\n"
    parts.append(sentence)
    total += len(sentence)
text = b"".join(parts)[:size]
data = gzip.compress(text, compresslevel=6, mtime=0)
open(sys.argv[1], "wb").write(data)
best = min(
    (lambda started: (zlib.decompress(data, 31), time.perf_counter() - started)[1])(time.perf_counter()) for _ in range(5)
)
print(f"text: {len(text)} bytes, gzip -6: {len(data)} bytes")
print(f"python3 zlib {zlib.ZLIB_RUNTIME_VERSION}, one call: {len(text)} bytes decoded in {best * 1000:.1f} ms: {len(text) / best / 1e6:.0f} MB/s")


def streaming():
    started, decoder = time.perf_counter(), zlib.decompressobj(31)
    for offset in range(0, len(data), 65536):
        decoder.decompress(data[offset : offset + 65536])
    return time.perf_counter() - started


best = min(streaming() for _ in range(5))
print(f"python3 zlib {zlib.ZLIB_RUNTIME_VERSION}, 64 KiB pieces: {len(text) / best / 1e6:.0f} MB/s")
PY
swiftc -O -wmo -swift-version 6 -module-name InflateBenchmark "$ROOT"/Sources/WebServiceKit/ContentCoding/*.swift \
    "$HERE/benchmark/main.swift" -o "$WORK/benchmark"
"$WORK/benchmark" "$WORK/text.gz"
