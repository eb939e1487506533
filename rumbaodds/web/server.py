"""The standard library's ``ThreadingHTTPServer`` around :class:`.app.App`.

Why no web framework: one local user, one page and a handful of JSON routes;
the standard library serves that with no dependency to install on an offline
machine, and a thread per request keeps the page answering while a
simulation runs (the kernels release the GIL). All the behaviour lives in
:mod:`.app`; this module only moves bytes.
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from ..limits import PORT
from .app import App, Response

log = logging.getLogger("rumbaodds.web")
MAX_BODY = 64 * 1024
MAX_FIELDS = 64


class Handler(BaseHTTPRequestHandler):
    server: RumbaServer
    server_version = "rumbaodds"
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        self._handle("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._handle("POST")

    def do_HEAD(self) -> None:  # noqa: N802
        self._handle("GET")

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """http.server's own errors (bad request line, unknown method) as JSON too, never an HTML page."""
        response = Response.error(message or HTTPStatus(code).phrase, code)
        self._send(response.status, response.content_type, response.body)

    def _handle(self, method: str) -> None:
        try:
            url = urlsplit(self.path)
            query = parse_qs(url.query, keep_blank_values=True, max_num_fields=MAX_FIELDS)
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY:
                self._discard(length)
                response = Response.error(f"request body too large (at most {MAX_BODY:,} bytes)", 413)
                self._send(response.status, response.content_type, response.body)
                return
            body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
            if body and method == "POST":
                for key, values in parse_qs(body, keep_blank_values=True, max_num_fields=MAX_FIELDS).items():
                    query.setdefault(key, []).extend(values)
            response = self.server.app.handle(method, url.path, query)
        except ValueError as exc:  # a malformed query string (too many fields, bad length)
            response = Response.error(f"malformed request: {exc}", 400)
        self._send(response.status, response.content_type, response.body)

    def _discard(self, length: int) -> None:
        """Read a refused body away (so the client sees the answer), or close the connection past a limit."""
        if length > 16 * MAX_BODY:
            self.close_connection = True
            return
        while length > 0:
            length -= len(self.rfile.read(min(length, MAX_BODY)) or b"x" * length)

    def _send(self, status: int, content_type: str, body: bytes) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            if getattr(self, "command", None) != "HEAD":
                self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):  # the browser went away: nothing to tell it
            pass

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - http.server's signature
        log.debug("%s " + format, self.address_string(), *args)


class RumbaServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], app: App):
        super().__init__(address, Handler)
        self.app = app

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/"


def make_server(app: App, host: str = "127.0.0.1", port: int = 8000) -> RumbaServer:
    """A bound server (port 0: any free port); call ``serve_forever()`` to run it. A port out of range: LimitError."""
    PORT.check(port, "--port")
    return RumbaServer((host, port), app)
