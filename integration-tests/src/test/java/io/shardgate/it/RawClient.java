package io.shardgate.it;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * A deliberately small MySQL client on a plain socket, for sending bytes no driver would send.
 * It reads packets, and logs in with mysql_native_password when asked, optionally switching to
 * the zlib compressed protocol after the login's OK (then each {@link #write} is one compressed
 * frame with compressed sequence id 0, and {@link #read} unpacks the server's frames).
 */
final class RawClient implements AutoCloseable {
    /** One packet, or the reason there is none. */
    record Reply(Kind kind, int sequenceId, byte[] payload) {
        enum Kind { PACKET, CLOSED, TIMEOUT }

        boolean isErr() {
            return kind == Kind.PACKET && payload.length > 0 && (payload[0] & 0xFF) == 0xFF;
        }

        int errno() {
            return (payload[1] & 0xFF) | (payload[2] & 0xFF) << 8;
        }

        /** The kind, and for an ERR its errno and text, for assertion messages. */
        @Override
        public String toString() {
            if (!isErr()) {
                return kind + "#" + sequenceId + (payload == null ? "" : " (" + payload.length + " bytes)");
            }
            return "ERR " + errno() + " " + new String(payload, 3, payload.length - 3, java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private byte[] scramble;
    private boolean compressed;
    /** Decompressed bytes from the server not yet returned as packets (compressed mode). */
    private byte[] inflated = new byte[0];
    private int inflatedAt;

    RawClient(int port, int timeoutMillis) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(timeoutMillis);
        socket.setTcpNoDelay(true);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** Reads the server's handshake and keeps its scramble; returns it as a reply. */
    Reply readHandshake() throws IOException {
        Reply reply = read();
        if (reply.kind() == Reply.Kind.PACKET && reply.payload().length > 0 && reply.payload()[0] == 10) {
            byte[] p = reply.payload();
            int i = 1;
            while (p[i] != 0) {
                i++;
            }
            i += 1 + 4;
            byte[] part1 = Arrays.copyOfRange(p, i, i + 8);
            i += 8 + 1 + 2 + 1 + 2 + 2 + 1 + 10;
            byte[] part2 = Arrays.copyOfRange(p, i, i + 12);
            scramble = new byte[20];
            System.arraycopy(part1, 0, scramble, 0, 8);
            System.arraycopy(part2, 0, scramble, 8, 12);
        }
        return reply;
    }

    /** Logs in as user/password (native); returns the server's answer to the login. */
    Reply login(String user, String password) throws Exception {
        return login(user, password, false);
    }

    /**
     * Logs in as user/password (native), asking for zlib compression when {@code compress}; after
     * an OK the connection speaks the compressed protocol. Returns the server's answer to the login.
     */
    Reply login(String user, String password, boolean compress) throws Exception {
        Reply handshake = readHandshake();
        if (handshake.kind() != Reply.Kind.PACKET || handshake.isErr()) {
            return handshake;
        }
        write(1, handshakeResponse(user, password, compress ? CLIENT_COMPRESS : 0));
        Reply reply = read();
        if (compress && reply.kind() == Reply.Kind.PACKET && reply.payload().length > 0 && reply.payload()[0] == 0) {
            compressed = true;
        }
        return reply;
    }

    static final long CLIENT_COMPRESS = 0x20;

    /**
     * A HandshakeResponse41 for user/password (native scramble over the handshake's nonce, read
     * by {@link #readHandshake}), with {@code extraCapabilities} added to the usual ones.
     */
    byte[] handshakeResponse(String user, String password, long extraCapabilities) throws Exception {
        long caps = 0x0200 | 0x8000 | 0x80000 | 0x1 | 0x2000 | 0x10000 | 0x20000 | 0x1000000 | extraCapabilities;
        byte[] userBytes = user.getBytes(StandardCharsets.UTF_8);
        byte[] auth = scramble(password.getBytes(StandardCharsets.UTF_8), scramble);
        byte[] plugin = "mysql_native_password".getBytes(StandardCharsets.US_ASCII);
        byte[] payload = new byte[32 + userBytes.length + 1 + 1 + auth.length + plugin.length + 1];
        putInt(payload, 0, caps);
        putInt(payload, 4, 1 << 24);
        payload[8] = 45;
        int i = 32;
        System.arraycopy(userBytes, 0, payload, i, userBytes.length);
        i += userBytes.length + 1;
        payload[i++] = (byte) auth.length;
        System.arraycopy(auth, 0, payload, i, auth.length);
        i += auth.length;
        System.arraycopy(plugin, 0, payload, i, plugin.length);
        return payload;
    }

    boolean compressed() {
        return compressed;
    }

    /** How long a {@link #read} waits before it answers {@link Reply.Kind#TIMEOUT}. */
    void timeout(int millis) throws IOException {
        socket.setSoTimeout(Math.max(1, millis));
    }

    /** COM_CHANGE_USER with a native scramble over the handshake's nonce. */
    Reply changeUser(String user, String password, String schema) throws Exception {
        byte[] userBytes = user.getBytes(StandardCharsets.UTF_8);
        byte[] auth = scramble(password.getBytes(StandardCharsets.UTF_8), scramble);
        byte[] schemaBytes = schema.getBytes(StandardCharsets.UTF_8);
        byte[] plugin = "mysql_native_password".getBytes(StandardCharsets.US_ASCII);
        byte[] payload = new byte[1 + userBytes.length + 1 + 1 + auth.length + schemaBytes.length + 1 + 2
                + plugin.length + 1];
        int i = 0;
        payload[i++] = 0x11;
        System.arraycopy(userBytes, 0, payload, i, userBytes.length);
        i += userBytes.length + 1;
        payload[i++] = (byte) auth.length;
        System.arraycopy(auth, 0, payload, i, auth.length);
        i += auth.length;
        System.arraycopy(schemaBytes, 0, payload, i, schemaBytes.length);
        i += schemaBytes.length + 1;
        payload[i++] = 45;
        payload[i++] = 0;
        System.arraycopy(plugin, 0, payload, i, plugin.length);
        write(0, payload);
        return read();
    }

    /** Runs a query and returns the first column of the first row (text protocol, DEPRECATE_EOF). */
    String queryFirst(String sql) throws IOException {
        byte[] text = sql.getBytes(StandardCharsets.UTF_8);
        byte[] payload = new byte[1 + text.length];
        payload[0] = 0x03;
        System.arraycopy(text, 0, payload, 1, text.length);
        write(0, payload);
        Reply columns = read();
        if (columns.kind() != Reply.Kind.PACKET || columns.isErr()) {
            throw new IOException("query failed: " + columns);
        }
        int count = columns.payload()[0] & 0xFF;
        if (count == 0) {
            return null; // an OK: the statement has no result set
        }
        for (int c = 0; c < count; c++) {
            read();
        }
        String first = null;
        while (true) {
            Reply row = read();
            byte[] p = row.payload();
            if ((p[0] & 0xFF) == 0xFE && p.length < 9) {
                return first;
            }
            if (first == null) {
                first = (p[0] & 0xFF) == 0xFB ? "NULL" : new String(p, 1, p[0] & 0xFF, StandardCharsets.UTF_8);
            }
        }
    }

    void write(int sequenceId, byte[] payload) throws IOException {
        byte[] packet = new byte[4 + payload.length];
        packet[0] = (byte) payload.length;
        packet[1] = (byte) (payload.length >> 8);
        packet[2] = (byte) (payload.length >> 16);
        packet[3] = (byte) sequenceId;
        System.arraycopy(payload, 0, packet, 4, payload.length);
        writeRaw(packet);
    }

    /** Writes bytes as they are, or in compressed mode as the content of one frame with compressed sequence id 0. */
    void writeRaw(byte[] bytes) throws IOException {
        if (compressed) {
            out.write(frame(0, bytes));
        } else {
            out.write(bytes);
        }
        out.flush();
    }

    /** Writes bytes past the compression layer (a hand-made or damaged compressed frame). */
    void writeWire(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /**
     * A compressed-protocol frame carrying {@code content}: zlib-compressed when it is 50 bytes or
     * more (uncompressed length in the header), else stored as it is (uncompressed length 0).
     */
    static byte[] frame(int sequenceId, byte[] content) {
        byte[] body = content;
        int uncompressedLength = 0;
        if (content.length >= 50) {
            Deflater deflater = new Deflater();
            deflater.setInput(content);
            deflater.finish();
            byte[] buffer = new byte[content.length + 64];
            int n = 0;
            while (!deflater.finished()) {
                if (n == buffer.length) {
                    buffer = Arrays.copyOf(buffer, buffer.length * 2);
                }
                n += deflater.deflate(buffer, n, buffer.length - n);
            }
            deflater.end();
            body = Arrays.copyOf(buffer, n);
            uncompressedLength = content.length;
        }
        byte[] frame = new byte[7 + body.length];
        frame[0] = (byte) body.length;
        frame[1] = (byte) (body.length >> 8);
        frame[2] = (byte) (body.length >> 16);
        frame[3] = (byte) sequenceId;
        frame[4] = (byte) uncompressedLength;
        frame[5] = (byte) (uncompressedLength >> 8);
        frame[6] = (byte) (uncompressedLength >> 16);
        System.arraycopy(body, 0, frame, 7, body.length);
        return frame;
    }

    Reply read() throws IOException {
        try {
            if (compressed) {
                byte[] head = unpacked(4);
                int length = (head[0] & 0xFF) | (head[1] & 0xFF) << 8 | (head[2] & 0xFF) << 16;
                return new Reply(Reply.Kind.PACKET, head[3] & 0xFF, unpacked(length));
            }
            int b0 = in.readUnsignedByte();
            int length = b0 | in.readUnsignedByte() << 8 | in.readUnsignedByte() << 16;
            int sequence = in.readUnsignedByte();
            byte[] payload = new byte[length];
            in.readFully(payload);
            return new Reply(Reply.Kind.PACKET, sequence, payload);
        } catch (EOFException e) {
            return new Reply(Reply.Kind.CLOSED, -1, new byte[0]);
        } catch (SocketTimeoutException e) {
            return new Reply(Reply.Kind.TIMEOUT, -1, new byte[0]);
        } catch (IOException e) {
            // Connection reset: the server closed while we were still sending.
            return new Reply(Reply.Kind.CLOSED, -1, new byte[0]);
        }
    }

    /** The next {@code n} decompressed bytes, reading and unpacking frames as needed. */
    private byte[] unpacked(int n) throws IOException {
        byte[] result = new byte[n];
        int have = 0;
        while (have < n) {
            if (inflatedAt == inflated.length) {
                nextFrame();
                continue;
            }
            int take = Math.min(n - have, inflated.length - inflatedAt);
            System.arraycopy(inflated, inflatedAt, result, have, take);
            inflatedAt += take;
            have += take;
        }
        return result;
    }

    private void nextFrame() throws IOException {
        byte[] head = new byte[7];
        in.readFully(head);
        int length = (head[0] & 0xFF) | (head[1] & 0xFF) << 8 | (head[2] & 0xFF) << 16;
        int uncompressedLength = (head[4] & 0xFF) | (head[5] & 0xFF) << 8 | (head[6] & 0xFF) << 16;
        byte[] body = new byte[length];
        in.readFully(body);
        if (uncompressedLength == 0) {
            inflated = body;
        } else {
            Inflater inflater = new Inflater();
            inflater.setInput(body);
            byte[] plain = new byte[uncompressedLength];
            try {
                int n = 0;
                while (n < plain.length && !inflater.finished()) {
                    int got = inflater.inflate(plain, n, plain.length - n);
                    if (got == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                        throw new IOException("truncated zlib frame from the server");
                    }
                    n += got;
                }
            } catch (DataFormatException e) {
                throw new IOException("bad zlib frame from the server", e);
            } finally {
                inflater.end();
            }
            inflated = plain;
        }
        inflatedAt = 0;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    private static void putInt(byte[] b, int at, long v) {
        b[at] = (byte) v;
        b[at + 1] = (byte) (v >> 8);
        b[at + 2] = (byte) (v >> 16);
        b[at + 3] = (byte) (v >> 24);
    }

    static byte[] scramble(byte[] password, byte[] nonce) throws Exception {
        MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
        byte[] stage1 = sha1.digest(password);
        byte[] stage2 = sha1.digest(stage1);
        sha1.update(nonce);
        sha1.update(stage2);
        byte[] mask = sha1.digest();
        for (int i = 0; i < mask.length; i++) {
            mask[i] ^= stage1[i];
        }
        return mask;
    }
}
