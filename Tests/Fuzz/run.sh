#!/usr/bin/env bash
# Fuzzes the parsers with libFuzzer: builds each target with swiftc -sanitize=fuzzer,address
# straight from the module sources into .build-fuzz/, then runs it for SECONDS (default 60)
# on a copy of its committed seed corpus (Tests/Fuzz/Corpus/TARGET).
#
#   Tests/Fuzz/run.sh [SECONDS] [TARGET...]     targets: json token-classifier plist flow (default: all)
#   Tests/Fuzz/run.sh 10                        a short CI-sized run
#
# Exit status: 0 when no target crashed; 1 otherwise. Crash inputs are left in
# .build-fuzz/artifacts/TARGET/: fix the crash, then copy the input to Tests/Fuzz/Crashes/TARGET/.
# Each target's check lives in Tests/Fuzz/Bodies/; the test command (the FuzzReplayTests
# target) runs the same check on every file of Corpus/TARGET and Crashes/TARGET.
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds="${1:-60}"
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(json token-classifier plist flow)

out=.build-fuzz
modules="$out/modules"
mkdir -p "$modules"
# Coverage-guided, with AddressSanitizer (catches memory errors in our jansson glue), optimised.
flags=(-O -g -sanitize=fuzzer,address -parse-as-library -swift-version 6 -enable-upcoming-feature ExistentialAny -I "$modules" -I Sources/CJansson -I Sources/CCurl)

# A module of the package as a static library: build_module NAME SOURCE_DIR
build_module() {
    local name="$1" dir="$2"
    [ -f "$modules/lib$name.a" ] && [ -z "$(find "$dir" -name '*.swift' -newer "$modules/lib$name.a")" ] && return
    echo "==> building module $name"
    # shellcheck disable=SC2046
    swiftc "${flags[@]}" -wmo -module-name "$name" -emit-module -emit-module-path "$modules/$name.swiftmodule" \
        -emit-library -static -o "$modules/lib$name.a" $(find "$dir" -name '*.swift' | sort)
}

# A fuzz target: build_target TARGET SOURCE BODY MODULE...
build_target() {
    local target="$1" source="$2" body="$3"
    shift 3
    local libraries=()
    for module in "$@"; do libraries+=("$modules/lib$module.a"); done
    echo "==> building fuzz-$target"
    swiftc "${flags[@]}" -use-ld=lld -o "$out/fuzz-$target" "$source" "$body" "${libraries[@]}" -ljansson -lcurl
}

build_module JSON Sources/JSON
for target in "${targets[@]}"; do
    case "$target" in
        json) build_target json Tests/Fuzz/Targets/FuzzJSON.swift Tests/Fuzz/Bodies/FuzzJSONInput.swift JSON ;;
        token-classifier)
            build_module ComplianceCore Sources/ComplianceCore
            build_target token-classifier Tests/Fuzz/Targets/FuzzTokenClassifier.swift Tests/Fuzz/Bodies/FuzzTokenClassifierInput.swift ComplianceCore JSON ;;
        plist)
            build_module ComplianceCore Sources/ComplianceCore
            build_module AppProfile Sources/AppProfile
            build_target plist Tests/Fuzz/Targets/FuzzPlist.swift Tests/Fuzz/Bodies/FuzzPlistInput.swift AppProfile ComplianceCore JSON ;;
        flow)
            build_module ComplianceCore Sources/ComplianceCore
            build_module AppProfile Sources/AppProfile
            build_module HTTPClient Sources/HTTPClient
            build_module ChildProcess Sources/ChildProcess
            build_module ControlClient Sources/ControlClient
            build_module Flows Sources/Flows
            build_target flow Tests/Fuzz/Targets/FuzzFlow.swift Tests/Fuzz/Bodies/FuzzFlowInput.swift Flows ControlClient ChildProcess HTTPClient AppProfile ComplianceCore JSON ;;
        *) echo "unknown target '$target' (json, token-classifier, plist, flow)" >&2; exit 64 ;;
    esac
done

failed=0
for target in "${targets[@]}"; do
    corpus="$out/corpus/$target"
    artifacts="$out/artifacts/$target"
    mkdir -p "$corpus" "$artifacts"
    cp -n Tests/Fuzz/Corpus/"$target"/* Tests/Fuzz/Crashes/"$target"/* "$corpus"/ 2>/dev/null || true
    echo "==> fuzzing $target for ${seconds}s"
    log="$out/fuzz-$target.log"
    set +e
    ASAN_OPTIONS=detect_leaks=0 "$out/fuzz-$target" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
        -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" >"$log" 2>&1
    status=$?
    set -e
    runs=$(grep -E '^stat::number_of_executed_units:' "$log" | awk '{print $2}')
    crashes=$(find "$artifacts" -type f \( -name 'crash-*' -o -name 'oom-*' -o -name 'timeout-*' -o -name 'leak-*' \) | wc -l)
    echo "$target: executions ${runs:-?}, crashes $crashes (libFuzzer exit $status; log $log)"
    grep -E '^(#[0-9]+[[:space:]]+DONE|Done [0-9]+ runs)' "$log" | tail -2 || true
    if [ "$status" -ne 0 ] || [ "$crashes" -ne 0 ]; then
        failed=1
        grep -E 'ERROR: |Fatal error|SUMMARY' "$log" | head -5 || true
    fi
done
exit "$failed"
