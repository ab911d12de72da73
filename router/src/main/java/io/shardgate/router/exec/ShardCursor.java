package io.shardgate.router.exec;

/**
 * How plans reach shards: proxy-core's implementation sends the statement to the shard's primary or
 * a replica and returns the result as a stream. A backend error is thrown as an unchecked exception
 * whose message is relayed.
 */
public interface ShardCursor {

    /** Starts {@code statement} on its shard; rows (or a write's completion) come from the stream. */
    RowStream execute(ShardStatement statement);
}
