"""What the fake servers share: a threaded HTTP server and a command line.

Standard library only: `docker-compose.yml` runs the fakes in a bare Python image."""

from __future__ import annotations

import argparse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def serve(handler: type[BaseHTTPRequestHandler], port: int, host: str = "127.0.0.1") -> ThreadingHTTPServer:
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server


def main(handler: type[BaseHTTPRequestHandler], *, what: str, description: str, default_port: int) -> None:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--port", type=int, default=default_port)
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args()
    server = serve(handler, args.port, args.host)
    print(f"{what} on http://{args.host}:{args.port}", flush=True)
    server.serve_forever()
