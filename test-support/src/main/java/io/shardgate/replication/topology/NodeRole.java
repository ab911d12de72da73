package io.shardgate.replication.topology;

public enum NodeRole {
    PRIMARY, REPLICA
}
