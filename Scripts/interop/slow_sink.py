#!/usr/bin/env python3
"""A slow-reading upload sink for Scripts/interop.sh (standard library only).

    slow_sink.py --port PORT --record FILE [--rate BYTES_PER_S] [--rcvbuf BYTES]

Listens on 127.0.0.1:PORT. A PUT (or POST) body is read at about --rate bytes a second, without
ever pausing longer than a read takes, and then answered 201; the listening socket gets a small
SO_RCVBUF before listen() (accepted sockets inherit it), so the kernel cannot take in the whole
body ahead of the reader and the client sees its bytes leave at the reader's pace. Bodies with
Content-Length and chunked bodies are read; "Expect: 100-continue" is answered at once.

Each request body appends one line to --record, written before the answer is sent:
    complete BYTES SHA256 SECONDS PATH      the body was read to its end (then 201 is sent)
    incomplete BYTES - SECONDS PATH         the client closed (or broke off) the body early
GET returns the record (200, text/plain); other methods get 405.
"""
import argparse
import hashlib
import http.server
import socket
import sys
import threading
import time


class SlowSink(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address, rate, rcvbuf, record):
        self.rate, self.rcvbuf, self.record = rate, rcvbuf, record
        self.lock = threading.Lock()
        super().__init__(address, Handler)

    def server_bind(self):
        # before listen(): the window the kernel advertises follows this buffer
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, self.rcvbuf)
        super().server_bind()

    def write_record(self, line):
        with self.lock, open(self.record, "a") as record:
            record.write(line + "\n")


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # so that Expect: 100-continue is answered
    server_version = "slow-sink"

    def log_message(self, format, *args):
        sys.stderr.write("slow-sink: %s %s\n" % (self.address_string(), format % args))

    def answer(self, status, body, content_type="text/plain", extra=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        self.close_connection = True

    def do_GET(self):
        try:
            with open(self.server.record, "rb") as record:
                body = record.read()
        except FileNotFoundError:
            body = b""
        self.answer(200, body)

    do_HEAD = do_GET

    def do_PUT(self):
        self.started = time.monotonic()
        self.received = 0
        self.digest = hashlib.sha256()
        try:
            if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
                self.read_chunked()
            else:
                self.read_exactly(int(self.headers.get("Content-Length", "0")))
        except (ConnectionError, EOFError, ValueError) as error:
            self.server.write_record("incomplete %d - %.1f %s" % (self.received, self.elapsed(), self.path))
            self.log_message("body broken off after %d bytes: %s", self.received, error)
            self.close_connection = True
            return
        self.server.write_record(
            "complete %d %s %.1f %s" % (self.received, self.digest.hexdigest(), self.elapsed(), self.path))
        try:
            self.answer(201, b"received %d bytes\n" % self.received)
        except OSError as error:  # a client that gave up: its kernel still delivered the rest
            self.log_message("the client was gone before the 201: %s", error)
            self.close_connection = True

    do_POST = do_PUT

    def elapsed(self):
        return time.monotonic() - self.started

    def pace(self):
        # never ahead of RATE: sleep until the bytes taken so far are due
        ahead = self.received / self.server.rate - self.elapsed()
        if ahead > 0:
            time.sleep(ahead)

    def read_exactly(self, count):
        while count > 0:
            self.pace()
            data = self.rfile.read1(min(count, 4096))
            if not data:
                raise EOFError("end of stream with %d bytes still to come" % count)
            self.received += len(data)
            self.digest.update(data)
            count -= len(data)

    def read_line(self):
        line = self.rfile.readline(1024)
        if not line.endswith(b"\n"):
            raise EOFError("end of stream in a chunk header")
        return line

    def read_chunked(self):
        while True:
            size = int(self.read_line().split(b";")[0].strip(), 16)
            if size == 0:
                while self.read_line() not in (b"\r\n", b"\n"):  # trailers
                    pass
                return
            self.read_exactly(size)
            self.read_line()

    def do_other(self):
        self.answer(405, b"PUT, POST or GET\n", extra=[("Allow", "GET, HEAD, PUT, POST")])

    do_DELETE = do_PATCH = do_OPTIONS = do_other


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--record", required=True)
    parser.add_argument("--rate", type=int, default=150_000, help="bytes a second (default 150000)")
    parser.add_argument("--rcvbuf", type=int, default=16384, help="SO_RCVBUF of the listening socket")
    options = parser.parse_args()
    server = SlowSink(("127.0.0.1", options.port), options.rate, options.rcvbuf, options.record)
    actual = server.socket.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF)
    sys.stderr.write("slow-sink: 127.0.0.1:%d, %d bytes/s, SO_RCVBUF %d\n" % (options.port, options.rate, actual))
    sys.stderr.flush()
    server.serve_forever()


if __name__ == "__main__":
    main()
