package io.shardgate.proxy.frontend;

import io.shardgate.proxy.protocol.MySqlPacket;

/**
 * Runs one kind of client command. {@link Commands#executor} picks one by the command byte.
 * An executor answers the client (or hands the command to a {@link StatementRunner}, which does),
 * and ends the command through its {@link CommandScope}, at once or when its work completes.
 */
interface CommandExecutor {
    /** Runs the command in {@code packet}, which this method owns (it releases it or passes it on). */
    void execute(MySqlPacket packet);
}
