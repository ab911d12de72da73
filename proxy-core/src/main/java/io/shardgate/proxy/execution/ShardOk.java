package io.shardgate.proxy.execution;

import io.netty.buffer.ByteBuf;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.protocol.ServerStatus;
import io.shardgate.proxy.protocol.SessionStateInfo;
import io.shardgate.router.exec.Completion;

/**
 * What the OK packet that ended a shard statement reported: its completion, and the GTID of the
 * write it committed when the server tracked one. The connection's response tracker has read the
 * OK's head already; only the session state, when the status flags say there is some, is parsed here.
 */
public record ShardOk(Completion completion, String lastGtid) {

    /** The OK {@code payload} just accepted on {@code connection}. */
    public static ShardOk of(BackendConnection connection, ByteBuf payload) {
        Completion completion = new Completion(connection.okAffectedRows(), connection.okInsertId(), connection.lastWarnings());
        String gtid = null;
        if ((connection.okStatus() & ServerStatus.SESSION_STATE_CHANGED) != 0) {
            for (SessionStateInfo.Variable variable : SessionStateInfo.ofOk(payload).variables()) {
                if (variable.name().equals("last_gtid") && !variable.value().isEmpty()) {
                    gtid = variable.value();
                }
            }
        }
        return new ShardOk(completion, gtid);
    }
}
