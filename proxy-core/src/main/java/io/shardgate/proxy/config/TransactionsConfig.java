package io.shardgate.proxy.config;

import static java.util.Objects.requireNonNull;

/**
 * {@code transactions:} how a sharded deployment commits a transaction that wrote to several shards.
 *
 * @param crossShard    {@code xa}: two-phase commit over the shards touched; {@code reject}: a
 *                      transaction's first write to a second shard gets an error
 * @param decisionShard the shard whose primary keeps the XA commit decisions (default: the first)
 */
public record TransactionsConfig(CrossShard crossShard, String decisionShard) {

    public enum CrossShard { XA, REJECT }

    public TransactionsConfig {
        requireNonNull(crossShard, "crossShard is null");
        requireNonNull(decisionShard, "decisionShard is null");
    }
}
