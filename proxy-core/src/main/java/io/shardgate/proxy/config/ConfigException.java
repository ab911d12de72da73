package io.shardgate.proxy.config;

/** An invalid config; the message starts with the key, such as {@code shards[1].primary: ...}. */
public class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }
}
