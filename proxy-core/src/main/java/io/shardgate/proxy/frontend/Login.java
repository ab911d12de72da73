package io.shardgate.proxy.frontend;

import io.shardgate.proxy.protocol.HandshakeResponse41;

import static java.util.Objects.requireNonNull;

/**
 * A connection that has passed its connection phase: its id, its authenticated session, the
 * handshake response it sent (COM_CHANGE_USER starts from it) and the authenticator that checks
 * a COM_CHANGE_USER against the same greeting nonce.
 */
record Login(long connectionId, ClientSession session, HandshakeResponse41 response, Authenticator authenticator) {
    Login {
        requireNonNull(session, "session is null");
        requireNonNull(response, "response is null");
        requireNonNull(authenticator, "authenticator is null");
    }
}
