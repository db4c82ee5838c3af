"""What the fake servers share: a threaded HTTP server and a command line.

Standard library only: `docker-compose.yml` runs the fakes in a bare Python image."""

from __future__ import annotations

import argparse
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        # The gateway resets an upstream connection when Veil rejects a request whose
        # headers already went upstream (or when Envoy stops): not the fake's error.
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)


def serve(handler: type[BaseHTTPRequestHandler], port: int, host: str = "127.0.0.1") -> ThreadingHTTPServer:
    return Server((host, port), handler)


def main(handler: type[BaseHTTPRequestHandler], *, what: str, description: str, default_port: int) -> None:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--port", type=int, default=default_port)
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args()
    server = serve(handler, args.port, args.host)
    print(f"{what} on http://{args.host}:{args.port}", flush=True)
    server.serve_forever()
