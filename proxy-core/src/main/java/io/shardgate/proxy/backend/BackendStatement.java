package io.shardgate.proxy.backend;

/**
 * A statement prepared on one backend connection: the server's id, its parameter count, and the
 * parameter types the server last received for it (a client execute may leave them out).
 */
public final class BackendStatement {
    private final int id;
    private final int parameters;
    private byte[] boundTypes;

    public BackendStatement(int id, int parameters) {
        this.id = id;
        this.parameters = parameters;
    }

    public int id() {
        return id;
    }

    public int parameters() {
        return parameters;
    }

    public byte[] boundTypes() {
        return boundTypes;
    }

    public void boundTypes(byte[] types) {
        this.boundTypes = types;
    }
}
