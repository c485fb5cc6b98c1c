#!/usr/bin/env python3
"""Property-based checks of docs/openapi/*.yaml against running servers, with schemathesis.

    check_api.py --mockauth http://127.0.0.1:PORT --control-socket STATE_DIR/control.sock

For every documented operation of each server, schemathesis sends the document's own request
examples, then requests it generates from the document (positive data: what the document
allows; negative data: what it does not), and checks each answer:

- not_a_server_error: no 5xx;
- status_code_conformance: the status is one the operation documents;
- content_type_conformance: the Content-Type is one documented for that status;
- response_schema_conformance: the body validates against the documented schema.

Bounded and deterministic: at most --max-examples cases per operation and mode, a fixed
--seed, no shrinking, no example database; every request goes to loopback (the mockauth URL
must be on 127.0.0.1, the daemon is reached through its unix socket via a relay that this
script binds to 127.0.0.1 port 0). Prints one line per operation and a summary; exits 1 when
any check failed, naming the operation, the request (as curl) and the response.

The servers are owned by the caller (OpenAPITests.swift starts them for this run alone), so
destructive admin operations are fine; those that would make later checks meaningless are
left out (EXCLUDED below says why).
"""

from __future__ import annotations

import argparse
import os
import selectors
import socket
import sys
import threading
import time
import traceback
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
# Hypothesis keeps a cache (constants, unicode tables) beside the working directory; under
# .build it stays out of the work tree. Set before hypothesis is imported.
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", str(ROOT / ".build" / "schemathesis-hypothesis"))

import hypothesis
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

DOCS = ROOT / "docs" / "openapi"
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]

# Operations not sent, and why (method, path as in the document).
EXCLUDED = {
    # An armed fault makes the next requests of a route answer what the rule says (a 5xx, a
    # reset connection, a malformed body): that is the fault's purpose and outside the
    # contract, and it would turn every later check of that route into noise.
    ("POST", "/_admin/faults"): "arms faults that break later answers on purpose",
    # A low threshold locks the fixture users the later examples sign in with (AADSTS50053).
    ("PUT", "/_admin/lockout"): "locks the accounts later examples sign in with",
}

# Query parameters that make the server wait: clamped so one case costs at most this many ms
# (the document allows up to 60000).
WAIT_CAP_MS = 50
# `POST /v1/clock/advance` fires every timer due in the interval, one after another, before it
# answers: ten years (the most the document allows) are ~11 000 policy check-ins per enrolled
# account, each a request to the MAM service. Clamped to two days (6 check-ins per account).
CLOCK_ADVANCE_CAP_S = 2 * 86_400
# `POST /_admin/users/generate` may add 100 000 users; every later snapshot would list them
# (megabytes of JSON to validate). Clamped: the route's checks are the same for 20.
GENERATE_CAP = 20


@dataclass
class Failure:
    server: str
    operation: str
    mode: str
    titles: list[str]
    detail: str


@dataclass
class Tally:
    requests: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


class UnixRelay:
    """A loopback TCP listener (127.0.0.1, port 0) that pipes each connection to a unix socket.

    requests (and so schemathesis) speaks only TCP; the daemon's control API is on a unix
    socket. Each accepted connection gets its own unix connection and a thread that copies
    bytes both ways until either side closes. The daemon sees this process as its peer
    (SO_PEERCRED), which runs as the daemon's user.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._accept, name="relay", daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while not self.stopped.is_set():
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._pipe, args=(client,), daemon=True).start()

    def _pipe(self, client: socket.socket) -> None:
        upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            upstream.connect(self.path)
        except OSError:
            client.close()
            upstream.close()
            return
        selector = selectors.DefaultSelector()
        selector.register(client, selectors.EVENT_READ, upstream)
        selector.register(upstream, selectors.EVENT_READ, client)
        try:
            open_ends = 2
            while open_ends and not self.stopped.is_set():
                for key, _ in selector.select(timeout=0.5):
                    source, target = key.fileobj, key.data
                    try:
                        chunk = source.recv(65536)
                    except OSError:
                        chunk = b""
                    if chunk:
                        target.sendall(chunk)
                    else:
                        selector.unregister(source)
                        open_ends -= 1
                        try:
                            target.shutdown(socket.SHUT_WR)
                        except OSError:
                            pass
        except OSError:
            pass
        finally:
            selector.close()
            client.close()
            upstream.close()

    def close(self) -> None:
        self.stopped.set()
        self.listener.close()


def loopback_session() -> requests.Session:
    """A session that never takes a proxy from the environment: every request stays on loopback."""
    session = requests.Session()
    session.trust_env = False
    return session


def loopback_only(url: str) -> str:
    host = urllib.parse.urlsplit(url).hostname
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise SystemExit(f"check_api.py: {url} is not on loopback; this harness sends requests to loopback only")
    return url.rstrip("/")


def adjust(case: schemathesis.Case) -> None:
    """Bounds what one case costs (see WAIT_CAP_MS, CLOCK_ADVANCE_CAP_S and GENERATE_CAP)."""
    if isinstance(case.query, dict) and "wait" in case.query:
        try:
            if int(case.query["wait"]) > WAIT_CAP_MS:
                case.query["wait"] = WAIT_CAP_MS
        except (TypeError, ValueError):
            pass  # not a number: the server answers 400, which costs nothing
    caps = {"/_admin/users/generate": ("count", GENERATE_CAP), "/v1/clock/advance": ("seconds", CLOCK_ADVANCE_CAP_S)}
    if case.operation.path in caps and isinstance(case.body, dict):
        name, cap = caps[case.operation.path]
        value = case.body.get(name)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value > cap:
            case.body[name] = cap


def describe(response: requests.Response | None, case: schemathesis.Case, base_url: str, socket_path: str | None) -> str:
    lines = []
    try:
        if socket_path:  # as it would go to the daemon itself, not through this script's relay
            curl = case.as_curl_command(base_url="http://localhost").replace("curl ", f"curl --unix-socket {socket_path} ", 1)
        else:
            curl = case.as_curl_command(base_url=base_url)
        lines.append("request:  " + curl)
    except Exception as exc:  # the curl rendering must never hide the failure
        lines.append(f"request:  {case.method} {case.formatted_path} (curl rendering failed: {exc})")
    if response is not None:
        body = response.content[:600].decode("utf-8", "replace")
        lines.append(f"response: {response.status_code} {response.headers.get('content-type', '(no content type)')}")
        lines.append(f"          {body}{' …' if len(response.content) > 600 else ''}")
    return "\n".join(lines)


def run_strategy(
    server: str, operation, strategy, label: str, max_examples: int, base_url: str, session: requests.Session,
    tally: Tally, args, headers: dict[str, str] | None, socket_path: str | None, seen: set[tuple[str, ...]],
) -> tuple[int, list[Failure]]:
    """Sends up to `max_examples` cases drawn from `strategy` and checks each answer; returns
    how many were sent and the failures (one per distinct status and set of failed checks)."""
    found: list[Failure] = []
    sent = 0

    @hypothesis.seed(args.seed)
    @settings(
        max_examples=max_examples,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
        print_blob=False,
        report_multiple_bugs=False,
    )
    @given(case=strategy)
    def test(case: schemathesis.Case) -> None:
        nonlocal sent
        adjust(case)
        if headers and label != "negative":
            # Real credentials instead of the generated ones, so these cases reach the route's
            # logic; the negative cases keep theirs and check the 401s.
            case.headers = case.headers or {}
            case.headers.update(headers)
        try:
            response = case.call(base_url=base_url, session=session, allow_redirects=False, timeout=args.request_timeout)
        except requests.RequestException as exc:  # no answer (a hang, a reset): a failure of its own
            sent += 1
            tally.requests += 1
            key = ("no answer", type(exc).__name__)
            if key not in seen:
                seen.add(key)
                found.append(Failure(server, operation.label, label, [f"No answer ({type(exc).__name__})"],
                                     f"  - {exc}\n" + describe(None, case, base_url, socket_path)))
            return
        sent += 1
        tally.requests += 1
        tally.statuses[response.status_code] = tally.statuses.get(response.status_code, 0) + 1
        if args.verbose:
            sent_body = response.request.body or b""
            sent_body = sent_body if isinstance(sent_body, bytes) else sent_body.encode()
            print(f"      [{label[:3]}] {case.method} {response.request.path_url[:100]} {sent_body[:120]!r} -> "
                  f"{response.status_code} {response.content[:160]!r}", flush=True)
        try:
            case.validate_response(response, checks=CHECKS)
        except FailureGroup as group:
            titles = sorted({f"{failure.title}" for failure in group.exceptions})
            key = (str(response.status_code),) + tuple(titles)
            if key in seen:
                return
            seen.add(key)
            messages = "\n".join(f"  - {failure.title}: {failure.message.strip()}" for failure in group.exceptions)
            found.append(Failure(server, operation.label, label, titles,
                                 messages + "\n" + describe(response, case, base_url, socket_path)))

    try:
        test()
    except hypothesis.errors.Unsatisfiable:
        pass  # nothing to generate in this mode (e.g. no negative data for an operation without input)
    return sent, found


def strategies(operation, args):
    """The document's own examples first (each sent once, in order), then generated data:
    positive (what the document allows) and negative (what it does not)."""
    for strategy in operation.get_strategies_from_examples():
        yield "examples", strategy, 1
    yield "positive", operation.as_strategy(generation_mode=GenerationMode.POSITIVE), args.max_examples
    yield "negative", operation.as_strategy(generation_mode=GenerationMode.NEGATIVE), args.max_examples


def run_server(server: str, document: Path, base_url: str, args, excluded: dict, socket_path: str | None = None,
               headers_for=lambda op: None) -> Tally:
    schema = schemathesis.openapi.from_path(str(document))
    tally = Tally()
    session = loopback_session()
    shown = document.relative_to(ROOT) if document.is_relative_to(ROOT) else document
    print(f"== {server}: {shown} at {base_url}{f' (relaying to unix:{socket_path})' if socket_path else ''}", flush=True)
    for result in schema.get_all_operations():
        operation = result.ok()
        key = (operation.method.upper(), operation.path)
        if key in excluded:
            print(f"   skip {operation.label}: {excluded[key]}", flush=True)
            continue
        started = time.monotonic()
        total = 0
        failures: list[Failure] = []
        seen: set[tuple[str, ...]] = set()  # one report per distinct status and failed checks
        headers = headers_for(operation)
        for label, strategy, count in strategies(operation, args):
            try:
                sent, found = run_strategy(server, operation, strategy, label, count, base_url, session, tally, args,
                                           headers, socket_path, seen)
            except Exception as exc:  # a transport error or a schemathesis error: report, go on
                detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
                tally.errors.append(f"{server} {operation.label} [{label}]: {detail}")
                print(f"   ERROR {operation.label} [{label}]: {detail}", flush=True)
                continue
            total += sent
            failures += found
        tally.failures += failures
        verdict = "ok" if not failures else f"FAILED ({len(failures)})"
        print(f"   {verdict:<12} {operation.label:<60} {total:>3} requests {time.monotonic() - started:5.1f} s", flush=True)
    return tally


def mam_token(mockauth: str) -> str:
    """A MAM-service token for alice (password grant), so MAM cases reach past authentication."""
    response = loopback_session().post(
        f"{mockauth}/contoso.com/oauth2/v2.0/token",
        data={"grant_type": "password", "client_id": "chatr", "username": "alice@contoso.com",
              "password": "Passw0rd!", "scope": "https://msmamservice.api.application/.default"},
        timeout=10,
    )
    response.raise_for_status()
    return response.json()["access_token"]


def reset_mock(mockauth: str) -> None:
    session = loopback_session()
    for method, path in (("DELETE", "/_admin/faults"), ("POST", "/_admin/reset")):
        session.request(method, mockauth + path, timeout=10).raise_for_status()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mockauth", help="base URL of a running mockauth (http://127.0.0.1:PORT)")
    parser.add_argument("--control-socket", help="control socket of a running complianced")
    parser.add_argument("--max-examples", type=int, default=15, help="cases per operation and mode (default 15)")
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--request-timeout", type=float, default=20.0)
    parser.add_argument("--verbose", action="store_true", help="print every request and the start of its answer")
    parser.add_argument("--docs", type=Path, default=DOCS, help="the folder of control-api.yaml and mockauth.yaml")
    args = parser.parse_args()
    if not args.mockauth and not args.control_socket:
        parser.error("give --mockauth, --control-socket or both")

    started = time.monotonic()
    tallies: list[tuple[str, Tally]] = []
    mockauth = loopback_only(args.mockauth) if args.mockauth else None

    if args.control_socket:
        relay = UnixRelay(args.control_socket)
        try:
            tallies.append(("complianced", run_server(
                "complianced", args.docs / "control-api.yaml", relay.url, args, {}, socket_path=args.control_socket)))
        finally:
            relay.close()

    if mockauth:
        # The daemon's run changed the mock (enrollments, compliance): start from the fixtures.
        reset_mock(mockauth)
        token: dict[str, str] = {}

        def headers_for(operation):
            if not operation.path.startswith("/mam/"):
                return None
            # Fetched per operation: an earlier case may have advanced the mock's clock.
            token["value"] = mam_token(mockauth)
            return {"Authorization": f"Bearer {token['value']}"}

        tallies.append(("mockauth", run_server("mockauth", args.docs / "mockauth.yaml", mockauth, args, EXCLUDED,
                                               headers_for=headers_for)))

    failures = [failure for _, tally in tallies for failure in tally.failures]
    errors = [error for _, tally in tallies for error in tally.errors]
    print()
    for failure in failures:
        print(f"FAILURE {failure.server} {failure.operation} [{failure.mode}]: {', '.join(failure.titles)}")
        print(failure.detail)
        print()
    for error in errors:
        print(f"ERROR {error}")
    for name, tally in tallies:
        statuses = ", ".join(f"{code}×{count}" for code, count in sorted(tally.statuses.items()))
        print(f"{name}: {tally.requests} requests ({statuses}); {len(tally.failures)} failures, {len(tally.errors)} errors")
    print(f"schemathesis {schemathesis.__version__}, seed {args.seed}, max {args.max_examples} examples "
          f"per operation and mode, {time.monotonic() - started:.1f} s")
    passed = not failures and not errors
    print("openapi checks: " + ("passed" if passed else "FAILED"))
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
