"""A real `scorekeeper serve` (on 127.0.0.1, stopped by its pid): a body over the upload limit is refused by
waitress before much more than the limit has arrived (by its length, chunked, multipart), and behind
SCOREKEEPER_PROXIES the forwarded headers reach the app: each player's address counts for the log-in
limit, and a request that came over HTTPS gets a Secure cookie and https share links."""

from __future__ import annotations

import http.client
import socket

import pytest

from .test_processes import Server

LIMIT = 64 * 2**10
HUGE = 128 * 2**20
PASSWORD = "a long password"


@pytest.fixture
def server(database_url, tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_MAX_UPLOAD", "64K")
    monkeypatch.setenv("SCOREKEEPER_PROXIES", "1")
    started = Server(database_url, tmp_path / "instance")
    yield started
    started.stop()


def _sent_before_refused(port: int, head: bytes, body_piece: bytes, most: int) -> tuple[int, bytes]:
    """Send `head`, then `body_piece` again and again up to `most` bytes, until the server answers or cuts
    the connection; how much of the body went, and the answer's first bytes."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        connection.sendall(head)
        sent = 0
        try:
            while sent < most:
                connection.sendall(body_piece)
                sent += len(body_piece)
                connection.setblocking(False)
                try:
                    early = connection.recv(200)
                    if early or early == b"":
                        return sent, early
                except BlockingIOError:
                    pass
                finally:
                    connection.setblocking(True)
        except (BrokenPipeError, ConnectionResetError):
            pass
        try:
            return sent, connection.recv(200)
        except (ConnectionResetError, OSError):
            return sent, b""


def _head(port: int, lines: list[str]) -> bytes:
    return ("\r\n".join([*lines, f"Host: 127.0.0.1:{port}", "", ""])).encode()


def test_a_body_over_the_limit_is_not_read(server):
    piece = b"x" * 2**16
    # Socket buffers on both sides hold a few MiB at most: far less than what the client would send.
    margin = 16 * 2**20
    cases = {
        "length": ["POST /api/v1/import HTTP/1.1", "Content-Type: application/json", f"Content-Length: {HUGE}"],
        "chunked": ["POST /api/v1/import HTTP/1.1", "Content-Type: application/json", "Transfer-Encoding: chunked"],
        "multipart": ["POST /import HTTP/1.1", "Content-Type: multipart/form-data; boundary=b",
                      f"Content-Length: {HUGE}"],
    }
    for name, lines in cases.items():
        body = f"{len(piece):x}\r\n".encode() + piece + b"\r\n" if name == "chunked" else piece
        sent, answer = _sent_before_refused(server.port, _head(server.port, lines), body, HUGE)
        assert sent < LIMIT + margin, (name, sent)
        assert answer == b"" or answer.startswith(b"HTTP/1.1 413") or answer.startswith(b"HTTP/1.1 400"), (name, answer)
    status, _, _ = server.call("GET", "/login")  # and the server goes on serving
    assert status == 200


def test_a_body_under_the_limit_is_served(server):
    status, body, _ = server.call("POST", "/api/v1/accounts", {"username": "anna", "password": PASSWORD})
    assert status == 201, body


def test_behind_the_proxy_each_player_has_his_address(server):
    server.call("POST", "/api/v1/accounts", {"username": "anna", "password": PASSWORD})
    for i in range(31):
        status, _, _ = server.call("POST", "/api/v1/tokens", {"username": f"nobody{i}", "password": "wrong pass"},
                                   headers={"X-Forwarded-For": "203.0.113.7"})
    assert status == 429  # the guesser's address is stopped
    status, body, _ = server.call("POST", "/api/v1/tokens", {"username": "anna", "password": PASSWORD},
                                  headers={"X-Forwarded-For": "198.51.100.2"})
    assert status == 201, body  # another player behind the same proxy is not
    # The client's own X-Forwarded-For hops before the proxy's are not believed: the proxy's last one is.
    status, _, _ = server.call("POST", "/api/v1/tokens", {"username": "anna", "password": PASSWORD},
                               headers={"X-Forwarded-For": "198.51.100.2, 203.0.113.7"})
    assert status == 429


def test_behind_the_proxy_https_is_known(server):
    server.call("POST", "/api/v1/accounts", {"username": "anna", "password": PASSWORD})
    https = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "pulya.example.org", "X-Forwarded-For": "198.51.100.9"}
    _, body, _ = server.call("POST", "/api/v1/tokens", {"username": "anna", "password": PASSWORD}, headers=https)
    token = body["token"]
    status, body, _ = server.call("POST", "/api/v1/pulkas", {"players": ["A", "B", "C"], "rules": {"preset": "sochi"}},
                                  token=token, headers=https)
    assert status == 201, body
    status, share, _ = server.call("POST", f"/api/v1/pulkas/{body['id']}/shares", {"role": "viewer"}, token=token,
                                   headers=https)
    assert share["url"].startswith("https://pulya.example.org/s/"), share
    cookies = _cookies_of(server, f"/s/{share['token']}", https)
    assert cookies and all("Secure" in cookie for cookie in cookies), cookies
    cookies = _cookies_of(server, f"/s/{share['token']}", {})
    assert cookies and all("Secure" not in cookie for cookie in cookies), cookies


def _cookies_of(server, path: str, headers: dict[str, str]) -> list[str]:
    """The Set-Cookie headers of one answer, its redirect not followed."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        assert response.status == 302
        return response.headers.get_all("Set-Cookie") or []
    finally:
        connection.close()
