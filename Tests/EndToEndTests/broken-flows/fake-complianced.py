#!/usr/bin/python3
"""A stand-in for complianced that dies on cue, for the flow runner's crash checks.

It serves the few control routes a flow needs on STATE_DIR/control.sock and prints the
ready line. How it dies is set by FAKE_DAEMON_DEATH:
  armed-other  after answering POST /v1/test/crash-after, the next call kills it (SIGKILL)
               without the crash marker: a death that is not the armed crash point.
  armed-marker the same, but it first writes the marker naming the armed point, as
               complianced does when it reaches it.
  after-answer it answers POST /v1/clock/advance, then kills itself (no point armed).
"""
import http.server
import json
import os
import signal
import socketserver
import sys

args = sys.argv[1:]
state = args[args.index("--state-dir") + 1]
os.makedirs(state, exist_ok=True)
socket_path = os.path.join(state, "control.sock")
if os.path.exists(socket_path):
    os.unlink(socket_path)
death = os.environ.get("FAKE_DAEMON_DEATH", "")
armed = {}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def address_string(self):
        return "unix"

    def log_message(self, *_):
        pass

    def answer(self, body):
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def do_GET(self):
        if self.path.startswith("/v1/health"):
            self.answer({"status": "ok", "lastEventSeq": 0})
        elif self.path.startswith("/v1/events"):
            self.answer({"events": []})
        else:
            self.answer({})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        if self.path == "/v1/test/crash-after":
            armed["point"] = body["point"]
            self.answer({"armed": body["point"], "occurrence": 1})
            return
        if armed and death in ("armed-other", "armed-marker"):
            if death == "armed-marker":
                with open(os.path.join(state, "crash-point-reached"), "w") as marker:
                    marker.write(armed["point"] + "\n")
            os.kill(os.getpid(), signal.SIGKILL)
        if self.path == "/v1/clock/advance":
            self.answer({"from": 0, "now": 0, "fired": []})
            if death == "after-answer":
                os.kill(os.getpid(), signal.SIGKILL)
            return
        self.answer({})


class Server(socketserver.UnixStreamServer):
    pass


server = Server(socket_path, Handler)
print("listening on unix:" + socket_path, flush=True)
server.serve_forever()
