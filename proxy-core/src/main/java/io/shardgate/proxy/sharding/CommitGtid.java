package io.shardgate.proxy.sharding;

import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.ResponseSink;
import io.shardgate.proxy.error.BackendErrorException;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.proxy.protocol.MySqlPacket;

import java.util.concurrent.CompletableFuture;

/**
 * Runs a statement that may commit (COMMIT, XA COMMIT) on a shard connection and reads the GTID the
 * server gave the commit from its OK packet's session state ({@code last_gtid}, which every shard
 * connection tracks). That GTID is what the session's causal position on the shard needs, so that
 * its later reads, or another connection's with its token, see the commit on a replica.
 */
final class CommitGtid {
    private CommitGtid() {
    }

    /** Completes with the GTID the OK reported (null when none, e.g. nothing was written) or fails on ERR. */
    static CompletableFuture<String> run(BackendConnection connection, String sql) {
        CompletableFuture<String> result = new CompletableFuture<>();
        connection.execute(MySqlPacket.command(Command.QUERY, sql), Command.QUERY, new ResponseSink() {
            private ErrPacket error;
            private String gtid;

            @Override
            public void packet(MySqlPacket response) {
                try {
                    if (response.header() == ErrPacket.HEADER && error == null) {
                        error = ErrPacket.decode(response.payload());
                    } else if (response.header() == 0x00 && connection.lastPacketWasOk()) {
                        String reported = ShardOk.of(connection, response.payload()).lastGtid();
                        if (reported != null) {
                            gtid = reported;
                        }
                    }
                } finally {
                    response.release();
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void complete(int status, boolean failed) {
                if (failed && error != null) {
                    result.completeExceptionally(new BackendErrorException(error));
                } else {
                    result.complete(gtid);
                }
            }

            @Override
            public void failed(Throwable cause) {
                result.completeExceptionally(cause);
            }
        });
        return result;
    }
}
