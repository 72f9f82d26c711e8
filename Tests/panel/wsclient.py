"""A minimal WebSocket client (RFC 6455) on plain sockets, able to send what a browser never
would: bad frames, huge frames, no or a foreign Origin."""
import base64, os, socket, struct


def upgrade(host, port, path="/ws", origin=None, host_header=None, timeout=5):
    """Returns (socket, status line, headers text); the socket is open only on a 101."""
    s = socket.create_connection((host, port), timeout=timeout)
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [f"GET {path} HTTP/1.1", f"Host: {host_header or f'{host}:{port}'}", "Upgrade: websocket", "Connection: Upgrade",
             f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
    if origin:
        lines.append(f"Origin: {origin}")
    s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(4096)
        if not chunk:
            break
        head += chunk
    text = head.decode(errors="replace")
    return s, text.split("\r\n", 1)[0], text


def frame(payload, opcode=1, mask=True, fin=True):
    header = bytes([(0x80 if fin else 0) | opcode])
    n = len(payload)
    bit = 0x80 if mask else 0
    if n < 126:
        header += bytes([bit | n])
    elif n < 65536:
        header += bytes([bit | 126]) + struct.pack(">H", n)
    else:
        header += bytes([bit | 127]) + struct.pack(">Q", n)
    if not mask:
        return header + payload
    key = os.urandom(4)
    return header + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def read_frame(s):
    """(opcode, payload) of the next frame, or None when the connection closed."""
    def exact(n):
        data = b""
        while len(data) < n:
            chunk = s.recv(n - len(data))
            if not chunk:
                return None
            data += chunk
        return data
    head = exact(2)
    if head is None:
        return None
    n = head[1] & 0x7F
    if n == 126:
        n = struct.unpack(">H", exact(2))[0]
    elif n == 127:
        n = struct.unpack(">Q", exact(8))[0]
    return head[0] & 0x0F, exact(n)


def next_text(s, want):
    """Skips frames until a text frame containing `want`; None when the connection closed first."""
    while True:
        f = read_frame(s)
        if f is None or f[0] == 8:
            return None if f is None else ("close", f[1])
        if f[0] == 1 and want in f[1].decode(errors="replace"):
            return f[1].decode()
