#!/usr/bin/python3
"""A minimal MySQL client that speaks the compressed protocol, zstd or zlib.

No client packaged for Debian speaks zstd protocol compression, so tests use this one. It is
written from the MySQL protocol documentation:

  Connection phase   HandshakeV10, HandshakeResponse41, AuthSwitchRequest, OK/ERR
  Compression        7-byte frame header: int<3> compressed length, int<1> compressed
                     sequence id, int<3> uncompressed length (0: sent as is)
  Text protocol      COM_QUERY and its text result set (without CLIENT_DEPRECATE_EOF)

It authenticates with mysql_native_password only (following an auth switch to it), runs each
--query in order and prints every row as one tab-separated line (NULL as "NULL"). On an ERR
packet it prints "ERROR <errno> (<sqlstate>): <message>" to stderr and exits 1; on a protocol
or connection error it exits 2.

Run it with /usr/bin/python3: the zstd mode needs Debian's python3-zstandard.

Compressed sequence ids: each command starts at 0; the server's reply continues from the last
frame sent plus one, and every frame received must carry the next id. --trace prints every frame
header to stderr, so tests can check what was sent and received.
"""

import argparse
import hashlib
import socket
import struct
import sys
import zlib

CLIENT_LONG_PASSWORD = 1
CLIENT_CONNECT_WITH_DB = 1 << 3
CLIENT_COMPRESS = 1 << 5
CLIENT_PROTOCOL_41 = 1 << 9
CLIENT_TRANSACTIONS = 1 << 13
CLIENT_SECURE_CONNECTION = 1 << 15
CLIENT_MULTI_STATEMENTS = 1 << 16
CLIENT_MULTI_RESULTS = 1 << 17
CLIENT_PLUGIN_AUTH = 1 << 19
CLIENT_ZSTD_COMPRESSION_ALGORITHM = 1 << 26

SERVER_MORE_RESULTS_EXISTS = 0x0008

COM_QUIT = 0x01
COM_QUERY = 0x03

MAX_PACKET_PAYLOAD = 0xFFFFFF
MIN_COMPRESS_LENGTH = 50
UTF8MB4_GENERAL_CI = 45
NATIVE_PASSWORD = b"mysql_native_password"


class ProtocolError(Exception):
    """The peer broke the protocol, or the connection failed."""


class ServerError(Exception):
    """The server answered with an ERR packet."""

    def __init__(self, errno, sqlstate, message):
        super().__init__("ERROR %d (%s): %s" % (errno, sqlstate, message))


def native_password_scramble(password, seed):
    """SHA1(password) XOR SHA1(seed + SHA1(SHA1(password))); empty for an empty password."""
    if not password:
        return b""
    stage1 = hashlib.sha1(password).digest()
    stage2 = hashlib.sha1(stage1).digest()
    mask = hashlib.sha1(seed + stage2).digest()
    return bytes(a ^ b for a, b in zip(stage1, mask))


class Reader:
    """Reads the fields of one packet payload."""

    def __init__(self, data):
        self.data = data
        self.pos = 0

    def remaining(self):
        return len(self.data) - self.pos

    def take(self, n):
        if self.pos + n > len(self.data):
            raise ProtocolError("packet too short: need %d bytes at offset %d of %d"
                                % (n, self.pos, len(self.data)))
        value = self.data[self.pos:self.pos + n]
        self.pos += n
        return value

    def int(self, n):
        return int.from_bytes(self.take(n), "little")

    def nul_string(self):
        end = self.data.find(b"\0", self.pos)
        if end < 0:
            raise ProtocolError("string without its NUL terminator at offset %d" % self.pos)
        value = self.data[self.pos:end]
        self.pos = end + 1
        return value

    def rest(self):
        return self.take(self.remaining())

    def lenenc_int(self):
        first = self.int(1)
        if first < 0xFB:
            return first
        if first == 0xFB:
            return None  # NULL in a text row
        if first == 0xFC:
            return self.int(2)
        if first == 0xFD:
            return self.int(3)
        if first == 0xFE:
            return self.int(8)
        raise ProtocolError("bad length-encoded integer prefix 0xff")

    def lenenc_string(self):
        length = self.lenenc_int()
        return None if length is None else self.take(length)


def parse_err(payload):
    r = Reader(payload)
    r.take(1)
    errno = r.int(2)
    sqlstate = "HY000"
    if r.remaining() and r.data[r.pos:r.pos + 1] == b"#":
        r.take(1)
        sqlstate = r.take(5).decode("ascii", "replace")
    return ServerError(errno, sqlstate, r.rest().decode("utf-8", "replace"))


def is_eof(payload):
    return payload[:1] == b"\xfe" and len(payload) < 9


def ok_status(payload):
    """Status flags of an OK packet (CLIENT_PROTOCOL_41)."""
    r = Reader(payload)
    r.take(1)
    r.lenenc_int()
    r.lenenc_int()
    return r.int(2)


class Connection:
    def __init__(self, sock, trace=False, digest=False):
        self.sock = sock
        self.trace = trace
        self.digest = digest  # print values as <length>:<sha256> instead of their bytes
        self.compressed = False
        self.algorithm = None
        self.compress_level = None
        self.split = MAX_PACKET_PAYLOAD
        self.seq = 0           # ordinary packet sequence id
        self.compressed_seq = 0
        self.inbuf = bytearray()  # decompressed packet stream (compressed mode)

    # -- raw socket ---------------------------------------------------------------------------

    def recv_exact(self, n):
        chunks = []
        while n > 0:
            chunk = self.sock.recv(min(n, 1 << 20))
            if not chunk:
                raise ProtocolError("connection closed by the server")
            chunks.append(chunk)
            n -= len(chunk)
        return b"".join(chunks)

    def log(self, message):
        if self.trace:
            print(message, file=sys.stderr)

    # -- compression --------------------------------------------------------------------------

    def enable_compression(self, algorithm, level, split):
        self.compressed = True
        self.algorithm = algorithm
        self.compress_level = level
        self.split = split
        if algorithm == "zstd":
            import zstandard
            self.zstd_compressor = zstandard.ZstdCompressor(level=level)
            self.zstd_decompressor = zstandard.ZstdDecompressor()

    def compress(self, data):
        if self.algorithm == "zstd":
            return self.zstd_compressor.compress(data)
        return zlib.compress(data, self.compress_level)

    def decompress(self, data, length):
        try:
            if self.algorithm == "zstd":
                out = self.zstd_decompressor.decompress(data, max_output_size=length)
            else:
                out = zlib.decompress(data)
        except Exception as e:  # zlib.error, zstandard.ZstdError
            raise ProtocolError("corrupt %s payload: %s" % (self.algorithm, e))
        if len(out) != length:
            raise ProtocolError("uncompressed length: %d (expected: %d)" % (len(out), length))
        return out

    def send_frames(self, stream):
        """Sends packet-stream bytes as compressed frames of at most self.split bytes each."""
        frames = []
        for offset in range(0, len(stream), self.split):
            chunk = stream[offset:offset + self.split]
            payload, uncompressed_length = chunk, 0
            if len(chunk) >= MIN_COMPRESS_LENGTH:
                compressed = self.compress(chunk)
                if len(compressed) < len(chunk):
                    payload, uncompressed_length = compressed, len(chunk)
            self.log("send frame seq=%d length=%d uncompressed=%d"
                     % (self.compressed_seq, len(payload), uncompressed_length))
            frames.append(struct.pack("<I", len(payload))[:3] + bytes([self.compressed_seq])
                          + struct.pack("<I", uncompressed_length)[:3] + payload)
            self.compressed_seq = (self.compressed_seq + 1) & 0xFF
        self.sock.sendall(b"".join(frames))

    def read_frame(self):
        header = self.recv_exact(7)
        length = int.from_bytes(header[0:3], "little")
        seq = header[3]
        uncompressed_length = int.from_bytes(header[4:7], "little")
        self.log("recv frame seq=%d length=%d uncompressed=%d" % (seq, length, uncompressed_length))
        if seq != self.compressed_seq:
            raise ProtocolError("compressed sequence id: %d (expected: %d)" % (seq, self.compressed_seq))
        self.compressed_seq = (seq + 1) & 0xFF
        payload = self.recv_exact(length)
        if uncompressed_length:
            payload = self.decompress(payload, uncompressed_length)
        self.inbuf += payload

    def stream_bytes(self, n):
        """n bytes of the packet stream, from the socket or the decompressed frames."""
        if not self.compressed:
            return self.recv_exact(n)
        while len(self.inbuf) < n:
            self.read_frame()
        value = bytes(self.inbuf[:n])
        del self.inbuf[:n]
        return value

    # -- packets ------------------------------------------------------------------------------

    def read_packet(self):
        """One logical packet payload, joining the 0xFFFFFF-long pieces of a large one."""
        payload = b""
        while True:
            header = self.stream_bytes(4)
            length = int.from_bytes(header[0:3], "little")
            if not self.compressed and header[3] != self.seq:
                raise ProtocolError("packet sequence id: %d (expected: %d)" % (header[3], self.seq))
            # In compressed mode, like libmysqlclient, trust the compressed sequence ids instead.
            self.seq = (header[3] + 1) & 0xFF
            payload += self.stream_bytes(length)
            if length < MAX_PACKET_PAYLOAD:
                return payload

    def packets(self, payload):
        """The packet bytes of one logical payload, split at 0xFFFFFF; advances self.seq."""
        out = []
        offset = 0
        while True:
            piece = payload[offset:offset + MAX_PACKET_PAYLOAD]
            out.append(struct.pack("<I", len(piece))[:3] + bytes([self.seq]) + piece)
            self.seq = (self.seq + 1) & 0xFF
            offset += len(piece)
            if len(piece) < MAX_PACKET_PAYLOAD:
                return b"".join(out)

    def write_packet(self, payload):
        data = self.packets(payload)
        if self.compressed:
            self.send_frames(data)
        else:
            self.sock.sendall(data)

    def command(self, payload):
        """Starts a command: both sequence ids restart at 0."""
        self.seq = 0
        self.compressed_seq = 0
        if self.inbuf:
            raise ProtocolError("%d unread bytes before a new command" % len(self.inbuf))
        self.write_packet(payload)

    # -- connection phase ---------------------------------------------------------------------

    def connect(self, user, password, database, algorithm, level, split, announced_plugin=NATIVE_PASSWORD):
        handshake = Reader(self.read_packet())
        if handshake.data[:1] == b"\xff":
            raise parse_err(handshake.data)
        protocol = handshake.int(1)
        if protocol != 10:
            raise ProtocolError("protocol version: %d (expected: 10)" % protocol)
        server_version = handshake.nul_string()
        plugin = NATIVE_PASSWORD
        handshake.int(4)  # connection id
        seed = handshake.take(8)
        handshake.take(1)
        capabilities = handshake.int(2)
        if handshake.remaining():
            handshake.int(1)  # character set
            handshake.int(2)  # status flags
            capabilities |= handshake.int(2) << 16
            seed_length = handshake.int(1)
            handshake.take(10)
            if capabilities & CLIENT_SECURE_CONNECTION:
                seed += handshake.take(max(13, seed_length - 8))[:12]
            if capabilities & CLIENT_PLUGIN_AUTH:
                plugin = handshake.nul_string()
        self.log("server %s capabilities=0x%x plugin=%s" % (server_version.decode(), capabilities, plugin.decode()))

        needed = CLIENT_PROTOCOL_41 | CLIENT_SECURE_CONNECTION | CLIENT_PLUGIN_AUTH
        if capabilities & needed != needed:
            raise ProtocolError("server lacks PROTOCOL_41, SECURE_CONNECTION or PLUGIN_AUTH")
        compress_flag = CLIENT_COMPRESS if algorithm == "zlib" else CLIENT_ZSTD_COMPRESSION_ALGORITHM
        if not capabilities & compress_flag:
            raise ProtocolError("server does not announce %s compression (capabilities 0x%x)"
                                % (algorithm, capabilities))
        flags = (CLIENT_LONG_PASSWORD | CLIENT_PROTOCOL_41 | CLIENT_TRANSACTIONS | CLIENT_SECURE_CONNECTION
                 | CLIENT_MULTI_STATEMENTS | CLIENT_MULTI_RESULTS | CLIENT_PLUGIN_AUTH | compress_flag)
        if database:
            flags |= CLIENT_CONNECT_WITH_DB

        # Announcing another plugin (with no auth data) makes the server send an AuthSwitchRequest.
        auth = native_password_scramble(password, seed) if announced_plugin == NATIVE_PASSWORD else b""
        response = struct.pack("<IIB", flags, MAX_PACKET_PAYLOAD + 1, UTF8MB4_GENERAL_CI) + b"\0" * 23
        response += user + b"\0" + bytes([len(auth)]) + auth
        if database:
            response += database + b"\0"
        response += announced_plugin + b"\0"
        if algorithm == "zstd":
            response += bytes([level])
        self.write_packet(response)

        while True:
            reply = self.read_packet()
            kind = reply[:1]
            if kind == b"\x00":
                break
            if kind == b"\xff":
                raise parse_err(reply)
            if kind == b"\xfe":  # AuthSwitchRequest
                r = Reader(reply)
                r.take(1)
                plugin = r.nul_string()
                if plugin != NATIVE_PASSWORD:
                    raise ProtocolError("auth switch to unsupported plugin %s" % plugin.decode())
                new_seed = r.rest().rstrip(b"\0")
                self.log("auth switch to %s" % plugin.decode())
                self.write_packet(native_password_scramble(password, new_seed))
                continue
            raise ProtocolError("unexpected packet 0x%02x during authentication" % reply[0])
        # The OK packet is the last uncompressed one; compression starts with the next command.
        self.enable_compression(algorithm, level, split)

    # -- commands -----------------------------------------------------------------------------

    def query(self, sql, out):
        """Runs one COM_QUERY; writes every row of every result set to out."""
        self.command(bytes([COM_QUERY]) + sql)
        while True:
            first = self.read_packet()
            kind = first[:1]
            if kind == b"\xff":
                raise parse_err(first)
            if kind == b"\x00":
                status = ok_status(first)
            elif kind == b"\xfb":
                raise ProtocolError("LOAD DATA LOCAL INFILE is not supported")
            else:
                status = self.result_set(Reader(first).lenenc_int(), out)
            if not status & SERVER_MORE_RESULTS_EXISTS:
                return

    def result_set(self, column_count, out):
        for _ in range(column_count):
            self.read_packet()  # column definition
        eof = self.read_packet()
        if not is_eof(eof):
            raise ProtocolError("expected EOF after column definitions, got 0x%02x" % eof[0])
        while True:
            row = self.read_packet()
            if row[:1] == b"\xff":
                raise parse_err(row)
            if is_eof(row):
                return Reader(row[3:5]).int(2)
            r = Reader(row)
            values = []
            for _ in range(column_count):
                value = r.lenenc_string()
                if value is None:
                    values.append(b"NULL")
                elif self.digest:
                    values.append(b"%d:%s" % (len(value), hashlib.sha256(value).hexdigest().encode("ascii")))
                else:
                    values.append(value)
            out.write(b"\t".join(values) + b"\n")

    def quit(self):
        try:
            self.command(bytes([COM_QUIT]))
        except OSError:
            pass


def main(argv=None):
    parser = argparse.ArgumentParser(description="MySQL client speaking the compressed protocol (zstd or zlib)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=3306)
    parser.add_argument("--user", default="root")
    parser.add_argument("--password", default="")
    parser.add_argument("--database", help="default database (CLIENT_CONNECT_WITH_DB)")
    parser.add_argument("--level", type=int,
                        help="zstd level 1..22 sent in the handshake (default 3); with --zlib, the zlib level (default 6)")
    parser.add_argument("--zlib", action="store_true", help="use CLIENT_COMPRESS (zlib) instead of zstd")
    parser.add_argument("--query", action="append", default=[], help="SQL to run; repeatable, run in order")
    parser.add_argument("--query-file", action="append", default=[],
                        help="file holding one SQL statement to run after the --query ones (for statements too large for argv)")
    parser.add_argument("--split-frames", type=int, default=MAX_PACKET_PAYLOAD, metavar="N",
                        help="send compressed frames of at most N uncompressed bytes, so one packet spans frames")
    parser.add_argument("--auth-plugin", default=NATIVE_PASSWORD.decode(),
                        help="plugin named in the handshake response; any other than mysql_native_password "
                             "sends no auth data, to exercise the auth switch")
    parser.add_argument("--repeat", type=int, default=1, metavar="N",
                        help="run the whole list of queries N times in a row on the one connection")
    parser.add_argument("--digest", action="store_true",
                        help="print each value as <length>:<sha256 hex> instead of its bytes (for large values)")
    parser.add_argument("--timeout", type=float, default=30.0, help="socket timeout in seconds")
    parser.add_argument("--trace", action="store_true", help="print every compressed frame header to stderr")
    args = parser.parse_args(argv)

    algorithm = "zlib" if args.zlib else "zstd"
    level = args.level if args.level is not None else (6 if args.zlib else 3)
    if algorithm == "zstd" and not 1 <= level <= 22:
        parser.error("--level: %d (expected: 1..22)" % level)
    if algorithm == "zlib" and not 0 <= level <= 9:
        parser.error("--level: %d (expected: 0..9 with --zlib)" % level)
    if not 1 <= args.split_frames <= MAX_PACKET_PAYLOAD:
        parser.error("--split-frames: %d (expected: 1..%d)" % (args.split_frames, MAX_PACKET_PAYLOAD))

    queries = [q.encode("utf-8") for q in args.query]
    for path in args.query_file:
        with open(path, "rb") as f:
            queries.append(f.read())

    out = sys.stdout.buffer
    try:
        sock = socket.create_connection((args.host, args.port), timeout=args.timeout)
    except OSError as e:
        print("cannot connect to %s:%d: %s" % (args.host, args.port, e), file=sys.stderr)
        return 2
    connection = Connection(sock, trace=args.trace, digest=args.digest)
    try:
        connection.connect(args.user.encode("utf-8"), args.password.encode("utf-8"),
                           args.database.encode("utf-8") if args.database else None,
                           algorithm, level, args.split_frames, args.auth_plugin.encode("ascii"))
        for _ in range(args.repeat):
            for sql in queries:
                connection.query(sql, out)
                out.flush()
        connection.quit()
        return 0
    except ServerError as e:
        out.flush()
        print(e, file=sys.stderr)
        return 1
    except (ProtocolError, OSError) as e:
        out.flush()
        print("protocol error: %s" % e, file=sys.stderr)
        return 2
    finally:
        sock.close()


if __name__ == "__main__":
    sys.exit(main())
