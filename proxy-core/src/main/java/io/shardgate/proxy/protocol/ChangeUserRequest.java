package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * COM_CHANGE_USER ("COM_CHANGE_USER" in the docs): log in again as another user on the same
 * connection. The auth response is computed with the nonce of the original handshake.
 */
public record ChangeUserRequest(String user, byte[] authResponse, String schema, int charset, String authPlugin,
                                Map<String, String> attributes) {
    public ChangeUserRequest {
        requireNonNull(user, "user is null");
        requireNonNull(authResponse, "authResponse is null");
        requireNonNull(schema, "schema is null");
        requireNonNull(authPlugin, "authPlugin is null");
        attributes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(requireNonNull(attributes, "attributes is null")));
    }

    public static ChangeUserRequest decode(ByteBuf payload, long capabilities) {
        ByteBuf buf = payload.duplicate();
        Wire.need(buf, 1, "COM_CHANGE_USER");
        buf.skipBytes(1);
        String user = Wire.readNulString(buf);
        byte[] auth;
        if (Capabilities.has(capabilities, Capabilities.CLIENT_SECURE_CONNECTION)) {
            Wire.need(buf, 1, "COM_CHANGE_USER auth response length");
            int length = buf.readUnsignedByte();
            Wire.need(buf, length, "COM_CHANGE_USER auth response");
            auth = new byte[length];
            buf.readBytes(auth);
        } else {
            auth = Wire.readNulBytes(buf);
        }
        String schema = buf.isReadable() ? Wire.readNulString(buf) : "";
        int charset = 0;
        if (buf.readableBytes() >= 2) {
            charset = buf.readUnsignedShortLE();
        }
        String plugin = "";
        if (Capabilities.has(capabilities, Capabilities.CLIENT_PLUGIN_AUTH) && buf.isReadable()) {
            plugin = Wire.readNulString(buf);
        }
        Map<String, String> attributes = Map.of();
        if (Capabilities.has(capabilities, Capabilities.CLIENT_CONNECT_ATTRS) && buf.isReadable()) {
            attributes = Wire.readConnectAttributes(buf, "COM_CHANGE_USER");
        }
        return new ChangeUserRequest(user, auth, schema, charset, plugin, attributes);
    }
}
