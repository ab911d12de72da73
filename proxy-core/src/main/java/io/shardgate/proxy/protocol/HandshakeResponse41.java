package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Protocol::HandshakeResponse41 ("Handshake Response Packet" in the docs). A payload of exactly
 * 32 bytes with CLIENT_SSL is an SSLRequest: the client switches to TLS and then sends the full
 * response.
 *
 * @param database   empty when the client did not connect with a schema
 * @param zstdLevel  the zstd level the client asked for, or 0
 */
public record HandshakeResponse41(long capabilities, long maxPacketSize, int charset, String user,
                                  byte[] authResponse, String database, String authPlugin,
                                  Map<String, String> attributes, int zstdLevel) {
    public static final int SSL_REQUEST_LENGTH = 32;

    public HandshakeResponse41 {
        requireNonNull(user, "user is null");
        requireNonNull(authResponse, "authResponse is null");
        requireNonNull(database, "database is null");
        requireNonNull(authPlugin, "authPlugin is null");
        // Keeps the client's order, so encoding what was decoded gives the same bytes.
        attributes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(requireNonNull(attributes, "attributes is null")));
    }

    public static boolean isSslRequest(ByteBuf payload) {
        return payload.readableBytes() == SSL_REQUEST_LENGTH
                && Capabilities.has(payload.getUnsignedIntLE(payload.readerIndex()), Capabilities.CLIENT_SSL);
    }

    public static HandshakeResponse41 decode(ByteBuf payload) {
        ByteBuf buf = payload.duplicate();
        Wire.need(buf, SSL_REQUEST_LENGTH, "handshake response");
        long caps = buf.readUnsignedIntLE();
        if (!Capabilities.has(caps, Capabilities.CLIENT_PROTOCOL_41)) {
            throw new MalformedPacketException("handshake response without CLIENT_PROTOCOL_41 (protocol 3.20 is not supported)");
        }
        long maxPacket = buf.readUnsignedIntLE();
        int charset = buf.readUnsignedByte();
        buf.skipBytes(23);
        String user = Wire.readNulString(buf);
        byte[] auth;
        if (Capabilities.has(caps, Capabilities.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA)) {
            auth = Wire.readLenencBytes(buf);
        } else if (Capabilities.has(caps, Capabilities.CLIENT_SECURE_CONNECTION)) {
            Wire.need(buf, 1, "auth response length");
            int length = buf.readUnsignedByte();
            Wire.need(buf, length, "auth response");
            auth = new byte[length];
            buf.readBytes(auth);
        } else {
            auth = Wire.readNulBytes(buf);
        }
        String database = "";
        if (Capabilities.has(caps, Capabilities.CLIENT_CONNECT_WITH_DB) && buf.isReadable()) {
            database = Wire.readNulString(buf);
        }
        String plugin = "";
        if (Capabilities.has(caps, Capabilities.CLIENT_PLUGIN_AUTH) && buf.isReadable()) {
            plugin = Wire.readNulString(buf);
        }
        Map<String, String> attributes = Map.of();
        if (Capabilities.has(caps, Capabilities.CLIENT_CONNECT_ATTRS) && buf.isReadable()) {
            attributes = Wire.readConnectAttributes(buf, "connection");
        }
        int zstdLevel = 0;
        if (Capabilities.has(caps, Capabilities.CLIENT_ZSTD_COMPRESSION_ALGORITHM) && buf.isReadable()) {
            zstdLevel = buf.readUnsignedByte();
        }
        return new HandshakeResponse41(caps, maxPacket, charset, user, auth, database, plugin, attributes, zstdLevel);
    }

    /** Encodes the response (the backend side uses this when logging in to a server). */
    public ByteBuf encode(ByteBufAllocator alloc) {
        ByteBuf buf = alloc.buffer(128);
        buf.writeIntLE((int) capabilities);
        buf.writeIntLE((int) maxPacketSize);
        buf.writeByte(charset);
        buf.writeZero(23);
        Wire.writeNulString(buf, user);
        if (Capabilities.has(capabilities, Capabilities.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA)) {
            Wire.writeLenencBytes(buf, authResponse);
        } else {
            buf.writeByte(authResponse.length).writeBytes(authResponse);
        }
        if (Capabilities.has(capabilities, Capabilities.CLIENT_CONNECT_WITH_DB)) {
            Wire.writeNulString(buf, database);
        }
        if (Capabilities.has(capabilities, Capabilities.CLIENT_PLUGIN_AUTH)) {
            Wire.writeNulString(buf, authPlugin);
        }
        if (Capabilities.has(capabilities, Capabilities.CLIENT_CONNECT_ATTRS)) {
            ByteBuf attrs = alloc.buffer();
            try {
                attributes.forEach((k, v) -> {
                    Wire.writeLenencString(attrs, k);
                    Wire.writeLenencString(attrs, v);
                });
                Wire.writeLenencInt(buf, attrs.readableBytes());
                buf.writeBytes(attrs);
            } finally {
                attrs.release();
            }
        }
        if (Capabilities.has(capabilities, Capabilities.CLIENT_ZSTD_COMPRESSION_ALGORITHM)) {
            buf.writeByte(zstdLevel);
        }
        return buf;
    }
}
