package io.shardgate.proxy.config;

/** A {@code host:port} address. */
public record HostPort(String host, int port) {
    public HostPort {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host is empty");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is out of range (expected: 0..65535)");
        }
    }

    static HostPort parse(ConfigNode node) {
        String text = node.requiredString();
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw node.error("expected HOST:PORT, got '" + text + "'");
        }
        try {
            HostPort address = new HostPort(text.substring(0, colon), Integer.parseInt(text.substring(colon + 1)));
            if (address.port() == 0) {
                throw new IllegalArgumentException("port 0 is not a server address");
            }
            return address;
        } catch (IllegalArgumentException e) {
            throw node.error("expected HOST:PORT, got '" + text + "' (" + e.getMessage() + ")");
        }
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
