package io.shardgate.router.exec;

/**
 * How plans reach shards: proxy-core's implementation sends the statement to the shard's primary or
 * a replica and returns the result as a stream. A backend error is thrown as an unchecked exception
 * whose message is relayed.
 */
public interface ShardCursor {

    /** Starts {@code statement} on its shard; rows (or a write's completion) come from the stream. */
    RowStream execute(ShardStatement statement);

    /**
     * The cursor for a subquery the plan runs before its statement: its results feed the statement's
     * text and never reach the client, so their columns do not describe the statement's result.
     */
    default ShardCursor forSubquery() {
        return this;
    }
}
