package io.shardgate.proxy.backend;

import io.shardgate.proxy.protocol.MySqlPacket;

/** Receives one command's response from a backend connection, on that connection's event loop. */
public interface ResponseSink {

    /** One response packet; the sink owns (and must release or pass on) it. */
    void packet(MySqlPacket packet);

    /** The backend has no more bytes for now: a good moment to flush. */
    void flush();

    /** The response is complete; {@code status} is the last server status seen. */
    void complete(int status, boolean error);

    /** The connection failed before the response was complete. */
    void failed(Throwable cause);
}
