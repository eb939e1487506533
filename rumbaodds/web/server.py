"""Uvicorn (an ASGI server on h11) with Starlette's requests and responses around :class:`.app.App`.

Why a kept HTTP stack and not hand-parsed HTTP: the server is shared, and a
request that is malformed, oversized or never finished must not tie it up
or confuse it. h11 parses every request (a header block over
:data:`MAX_HEADER_BYTES` is answered 431 and the connection closed, so the
rest is never read as new requests; a bad ``Content-Length`` is a 400);
uvicorn's event loop keeps every other connection answering while one
waits. All the behaviour lives in :mod:`.app` as plain functions; this
module only moves bytes: it reads the body (at most :data:`MAX_BODY`),
calls :meth:`.app.App.handle` in a thread (a table answer or the page is
never stuck behind a simulation: those wait on the app's own bounded queue)
and tells the app when the client goes away, which cancels its simulation.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
from concurrent.futures import ThreadPoolExecutor
from http import HTTPStatus
from urllib.parse import parse_qs

import h11
import uvicorn
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response as StarletteResponse
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..limits import PORT
from .app import App, Response

log = logging.getLogger("rumbaodds.web")
MAX_BODY = 64 * 1024  # a form's body: the parameters of one question
MAX_FIELDS = 64  # query and form fields together
MAX_HEADER_BYTES = 16 * 1024  # the request line and headers: beyond, 431 and the connection closed
MAX_CONNECTIONS = 64  # open connections and requests in flight (uvicorn answers 503 beyond)
REQUEST_THREADS = 16  # requests answered at once (a simulating one waits on the app's queue, at most a few)
METHODS = ("GET", "HEAD", "POST")


class JsonErrorsProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol whose own refusals are one-line JSON errors like every other answer.

    h11 finds a malformed request (a bad request line, ``Content-Length: -1``) or an oversized header
    block (its ``error_status_hint`` is 431); uvicorn answers it and closes the connection.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.protocol_error: h11.RemoteProtocolError | None = None
        next_event = self.conn.next_event

        def recording_next_event():
            try:
                return next_event()
            except h11.RemoteProtocolError as exc:
                self.protocol_error = exc
                raise

        self.conn.next_event = recording_next_event

    def send_400_response(self, msg: str) -> None:
        exc = self.protocol_error
        status = getattr(exc, "error_status_hint", 400) if exc is not None else 400
        if status == 431:
            message = f"request header block too large (at most {MAX_HEADER_BYTES:,} bytes)"
        else:
            message = f"malformed HTTP request: {exc or msg}"
        body = Response.error(message, status).body
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                   (b"connection", b"close")]
        try:
            for event in (h11.Response(status_code=status, headers=headers, reason=HTTPStatus(status).phrase),
                          h11.Data(data=body), h11.EndOfMessage()):
                self.transport.write(self.conn.send(event))
        except h11.LocalProtocolError:  # a response was already under way: nothing more can be said
            pass
        self.transport.close()


class Asgi:
    """The ASGI application: a request in, :meth:`App.handle` in a thread, its response out."""

    def __init__(self, app: App):
        self.app = app
        self.pool = ThreadPoolExecutor(REQUEST_THREADS, thread_name_prefix="request")

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":  # lifespan is off, websockets none: nothing else comes here
            return
        request = Request(scope, receive)
        head = len(scope["raw_path"]) + len(scope["query_string"]) + sum(len(k) + len(v) + 4
                                                                       for k, v in scope["headers"])
        if head > MAX_HEADER_BYTES:  # h11 refuses a longer block that arrives in pieces; this one came at once
            await self._send(scope, receive, send, Response.error(
                f"request header block too large (at most {MAX_HEADER_BYTES:,} bytes)", 431), close=True)
            return
        if request.method not in METHODS:
            await self._send(scope, receive, send, Response.error(
                f"method {request.method[:20]} is not served here (use GET or POST)", 501))
            return
        method = "GET" if request.method == "HEAD" else request.method
        try:
            body = await self._body(request)
        except ClientDisconnect:
            return
        if body is None:
            await self._send(scope, receive, send, Response.error(
                f"request body too large (at most {MAX_BODY:,} bytes)", 413), close=True)
            return
        try:
            query = parse_qs(scope["query_string"].decode("latin-1"), keep_blank_values=True,
                             max_num_fields=MAX_FIELDS)
            if body and method == "POST":
                for key, values in parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True,
                                            max_num_fields=MAX_FIELDS).items():
                    query.setdefault(key, []).extend(values)
        except ValueError as exc:  # too many fields
            await self._send(scope, receive, send, Response.error(f"malformed request: {exc}", 400))
            return
        gone = threading.Event()
        watcher = asyncio.create_task(self._watch(receive, gone))
        try:
            response = await asyncio.get_running_loop().run_in_executor(
                self.pool, self.app.handle, method, scope["path"], query, request.headers.get("host", ""), gone)
        finally:
            watcher.cancel()
        if not gone.is_set():
            await self._send(scope, receive, send, response)

    @staticmethod
    async def _body(request: Request) -> bytes | None:
        """The request's body, or None when it is longer than MAX_BODY (the rest is not read)."""
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_BODY:
            return None
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                return None
            chunks.append(chunk)
        return b"".join(chunks)

    @staticmethod
    async def _watch(receive, gone: threading.Event) -> None:
        """Set ``gone`` when the client closes its connection before its answer (the app cancels its run)."""
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                gone.set()
                return

    @staticmethod
    async def _send(scope, receive, send, response: Response, close: bool = False) -> None:
        headers = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", **dict(response.headers)}
        if close:
            headers["Connection"] = "close"
        await StarletteResponse(response.body, response.status, headers, response.content_type)(scope, receive, send)


class RumbaServer:
    """A bound server: ``serve_forever()`` runs it (in any thread), ``shutdown()`` stops it from another."""

    def __init__(self, address: tuple[str, int], app: App, verbose: bool = False):
        host, port = address
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.socket = socket.create_server((host, port), family=family)
        self.server_address = self.socket.getsockname()[:2]
        self.app = app
        app.listen_on(host)
        config = uvicorn.Config(
            Asgi(app), http=JsonErrorsProtocol, ws="none", lifespan="off", loop="asyncio", interface="asgi3",
            log_config=None, log_level="info" if verbose else "warning", access_log=verbose,
            limit_concurrency=MAX_CONNECTIONS, timeout_keep_alive=5, timeout_graceful_shutdown=2,
            h11_max_incomplete_event_size=MAX_HEADER_BYTES, server_header=False)
        self.server = uvicorn.Server(config)
        self._serving, self._stopped = threading.Event(), threading.Event()

    @property
    def url(self) -> str:
        host, port = self.server_address
        return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"

    def serve_forever(self, poll_interval: float = 0.2) -> None:
        """Serve until :meth:`shutdown` (or SIGINT/SIGTERM in the main thread; they are raised again after)."""
        self._serving.set()
        try:
            self.server.run(sockets=[self.socket])
        finally:
            self._stopped.set()

    def shutdown(self) -> None:
        """Stop serving (answers in flight get a moment to finish) and wait until it has stopped."""
        self.server.should_exit = True
        if self._serving.is_set():
            self._stopped.wait(30)

    def server_close(self) -> None:
        self.socket.close()


def make_server(app: App, host: str = "127.0.0.1", port: int = 8000, verbose: bool = False) -> RumbaServer:
    """A bound server (port 0: any free port); call ``serve_forever()`` to run it. A port out of range: LimitError."""
    PORT.check(port, "--port")
    return RumbaServer((host, port), app, verbose)
