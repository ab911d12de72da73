package io.shardgate.proxy.config;

/** A {@code host:port} address. */
public record HostPort(String host, int port) {
    public HostPort {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host is empty");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is out of range (expected: 1..65535)");
        }
    }

    static HostPort parse(ConfigNode node) {
        String text = node.requiredString();
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw node.error("expected HOST:PORT, got '" + text + "'");
        }
        try {
            return new HostPort(text.substring(0, colon), Integer.parseInt(text.substring(colon + 1)));
        } catch (IllegalArgumentException e) {
            throw node.error("expected HOST:PORT, got '" + text + "' (" + e.getMessage() + ")");
        }
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
