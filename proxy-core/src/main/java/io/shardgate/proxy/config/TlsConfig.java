package io.shardgate.proxy.config;

import java.nio.file.Path;
import java.util.Optional;

/** PEM certificate chain and private key for client TLS; both empty means a self-signed pair made at startup. */
public record TlsConfig(Optional<Path> certificate, Optional<Path> privateKey) {
    public static final TlsConfig SELF_SIGNED = new TlsConfig(Optional.empty(), Optional.empty());
}
