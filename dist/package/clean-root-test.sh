#!/usr/bin/env bash
# ./run.sh package-test: the .deb that `./run.sh package` left in dist/, proven in a clean
# Debian root with no Swift in it (mmdebstrap --variant=minbase bookworm), installed with apt.
# In that root (chroot; it shares the host's loopback): --version of the three programs, the
# packaged demo flows all passed, `mockauth serve` with its packaged default fixtures (fetched
# from outside with curl), systemd-analyze verify of the installed units, then a purge that
# leaves none of the package's files. The root and its mounts go on success and failure alike.
# Needs root. BOOKWORM_MIRROR overrides the Debian mirror (default: deb.debian.org).
set -euo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=dist/package/clean-root-lib.sh
. dist/package/clean-root-lib.sh
deb="$(package_deb)"
mockauth_pid=""
make_root

check "the root has no Swift" test -z "$(find "$root/usr" "$root/opt" -name 'libswiftCore*' -print -quit 2>/dev/null; in_root sh -c 'command -v swift swiftc' || true)"

echo "==> apt-get install ./$(basename "$deb")"
cp "$deb" "$root/tmp/"
start_ns=$(date +%s%N)
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "/tmp/$(basename "$deb")" >"$root/tmp/install.log" 2>&1 \
    || { cat "$root/tmp/install.log" >&2; exit 1; }
install_ms=$((($(date +%s%N) - start_ns) / 1000000))
echo "    installed in $((install_ms / 1000)).$(printf '%03d' $((install_ms % 1000))) s ($(grep -c '^Setting up' "$root/tmp/install.log") packages set up)"

versions_ok() {
    local program out
    for program in complianced compliancectl mockauth; do
        out="$(in_root "$program" --version)" || return 1
        echo "    $program --version: $out"
        [ "$out" = "$version" ] || return 1
    done
}
check "--version of the three is $version" versions_ok

demo_ok() {
    local log="$root/tmp/demo.log" status=0
    in_root sh -c "cd / && compliancectl run /usr/share/$name/flows" >"$log" 2>&1 || status=$?
    local summary
    summary="$(grep -aE '^[0-9]+ of [0-9]+ flows passed$' "$log" | tail -1)"
    echo "    demo: ${summary:-no summary line}"
    if [ "$status" -ne 0 ]; then tail -40 "$log" >&2; return 1; fi
    [[ "$summary" =~ ^([0-9]+)\ of\ ([0-9]+)\ flows\ passed$ ]] && [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] && [ "${BASH_REMATCH[1]}" -gt 0 ]
}
check "compliancectl run /usr/share/$name/flows: every flow passed" demo_ok

copied_ok() {  # a flow kept outside the package's tree: the packaged fixture and app are its defaults
    local log="$root/tmp/copied.log" status=0
    in_root sh -c "mkdir -p /tmp/my-flows && cp /usr/share/$name/flows/seed-mam-ca-always-applied.json /tmp/my-flows/ && cd /tmp && compliancectl run /tmp/my-flows" >"$log" 2>&1 || status=$?
    if [ "$status" -ne 0 ]; then tail -20 "$log" >&2; return 1; fi
    grep -aq '^1 of 1 flows passed$' "$log"
}
check "a demo flow copied out of /usr/share/$name runs with the packaged fixture and app" copied_ok

contained_ok() {  # compliancectl killed with SIGKILL: its servers end too (child-keeper from /usr/libexec)
    local flow=/tmp/slow-flows/slow.json pid="" _ seen=""
    mkdir -p "$root/tmp/slow-flows"
    cat >"$root$flow" <<FLOW
{"name": "a slow issuer", "description": "every token request waits 9 s",
 "steps": [{"do": "injectFault", "route": "token", "delayMs": 9000, "count": 10},
           {"do": "signIn", "account": "bob@contoso.com", "password": "Passw0rd!"}]}
FLOW
    chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        sh -c 'cd /tmp && exec compliancectl run /tmp/slow-flows' >"$root/tmp/slow.log" 2>&1 &
    pid=$!
    for _ in $(seq 1 300); do
        seen="$(servers_in_root)"
        [ "$(echo "$seen" | grep -c .)" -ge 2 ] && break
        sleep 0.2
    done
    echo "    running under compliancectl: $(echo "$seen" | tr '\n' ' ')"
    kill -KILL "$pid"; wait "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do [ -z "$(servers_in_root)" ] && break; sleep 0.2; done
    local left; left="$(servers_in_root)"
    if [ -n "$left" ]; then echo "    left running: $left" >&2; pkill -KILL -f 'mockauth serve|complianced --state-dir' || true; return 1; fi
    [ "$(echo "$seen" | grep -c .)" -ge 2 ] && in_root test -x /usr/libexec/$name/child-keeper
}
# The names of mockauth and complianced processes whose root is the clean root.
servers_in_root() {
    local p
    for p in $(pgrep -x 'mockauth|complianced' || true); do
        [ "$(readlink "/proc/$p/root" 2>/dev/null)" = "$root" ] && echo "$(cat "/proc/$p/comm" 2>/dev/null)[$p]"
    done
    return 0
}
check "compliancectl killed with SIGKILL leaves no server running (child-keeper)" contained_ok

mockauth_ok() {
    local out="$root/tmp/mockauth.out" url="" _
    # From /, with no fixtures named: it must find /usr/share/$name/mocks/fixtures/contoso.json.
    # Not through in_root: a backgrounded shell function is a subshell, and $! would name it,
    # not mockauth (killing it left mockauth running). chroot, env and sh each exec the next,
    # so $! is mockauth's own pid.
    chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        sh -c 'cd / && exec mockauth serve --port 0' >"$out" 2>"$root/tmp/mockauth.err" &
    mockauth_pid=$!
    started_pids+=("$mockauth_pid")
    for _ in $(seq 1 300); do  # its first line, or its end
        url="$(sed -n 's/^listening on \(http:[^ ]*\)$/\1/p' "$out" | head -1)"
        [ -n "$url" ] || ! kill -0 "$mockauth_pid" 2>/dev/null && break
        sleep 0.2
    done
    if [ -z "$url" ]; then cat "$out" "$root/tmp/mockauth.err" >&2; return 1; fi
    local discovery
    discovery="$(curl -sS --max-time 20 "$url/contoso.com/v2.0/.well-known/openid-configuration")" || return 1
    echo "    $url/contoso.com/v2.0/.well-known/openid-configuration: $(echo "$discovery" | head -c 120)…"
    kill "$mockauth_pid"
    wait "$mockauth_pid" || true
    mockauth_pid=""
    # Nothing the check started may outlive it.
    if pgrep -f 'mockauth serve --port 0' | xargs -r -I{} readlink /proc/{}/root | grep -qF "$root"; then
        echo "    mockauth outlived its check" >&2
        return 1
    fi
    grep -q '"token_endpoint"' <<<"$discovery" && grep -q '"jwks_uri"' <<<"$discovery" && grep -q "${url#http://}" <<<"$discovery"
}
check "mockauth serve (packaged default fixtures) answers its discovery document" mockauth_ok

units_ok() {
    # systemd itself only now, after the checks above ran without it (the package does not
    # depend on it); its systemd-analyze then verifies the units as installed, ExecStart too.
    in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends systemd >"$root/tmp/systemd.log" 2>&1 \
        || { cat "$root/tmp/systemd.log" >&2; return 1; }
    local out status=0
    out="$(in_root systemd-analyze verify --man=no complianced.service mockauth.service 2>&1)" || status=1
    [ -z "$out" ] || { echo "$out" >&2; status=1; }
    return "$status"
}
check "systemd-analyze verify of the installed units" units_ok

purge_ok() {
    in_root env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q "$name" >"$root/tmp/purge.log" 2>&1 || { cat "$root/tmp/purge.log" >&2; return 1; }
    local left
    left="$(cd "$root" && { ls -d usr/bin/complianced usr/bin/mockauth etc/default/complianced etc/default/mockauth \
        "usr/share/$name" "usr/share/doc/$name" lib/systemd/system/mockauth.service 2>/dev/null || true; })"
    [ -z "$left" ] || { echo "    left after purge: $left" >&2; return 1; }
}
check "apt-get purge leaves none of its files" purge_ok

echo "==> clean root: $(du -h "$deb" | cut -f1) package, installed in $((install_ms / 1000)).$(printf '%03d' $((install_ms % 1000))) s"
finish_checks clean-root
