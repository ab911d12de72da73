package io.shardgate.proxy.frontend;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.shardgate.proxy.auth.CachingSha2Password;
import io.shardgate.proxy.auth.NativePassword;
import io.shardgate.proxy.auth.RsaKeyPair;
import io.shardgate.proxy.config.UserConfig;
import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.protocol.AuthSwitchRequest;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.proxy.protocol.MySqlPacket;

import java.net.InetSocketAddress;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Checks one client's credentials against the configured users: mysql_native_password, and
 * caching_sha2_password by its fast path (a cached digest), its full path over TLS (the password
 * itself) or over plain text (the password RSA-encrypted with the proxy's key), with an auth
 * switch first when the client answered for another plugin than the user's. The connection phase
 * ({@link ConnectionPhaseHandler}) and COM_CHANGE_USER both authenticate through it, with the nonce
 * of the connection's greeting.
 *
 * <p>{@link #begin} starts an exchange and {@link #next} takes each further packet of it; each
 * returns an {@link Outcome}: more packets wanted, the user accepted (the caller sends the OK at the
 * outcome's sequence id), or refused with the ERR to send before closing. An unknown user goes
 * through the same steps as a known one, so the answers do not tell them apart.
 */
final class Authenticator {
    private static final int AUTH_MORE_DATA = 0x01;

    /** What the exchange waits for next. */
    private enum Stage { NONE, AUTH_SWITCH, SHA2_FULL, SHA2_RSA }

    /** Where an exchange stands after a packet: {@code error} is null unless refused; {@code sequence} for the answer. */
    record Outcome(boolean pending, int sequence, ErrPacket error) {
        static final Outcome PENDING = new Outcome(true, 0, null);

        boolean accepted() {
            return !pending && error == null;
        }

        boolean refused() {
            return error != null;
        }
    }

    private final Map<String, UserConfig> users;
    private final RsaKeyPair rsa;
    private final byte[] nonce;
    private boolean tls;
    private Stage stage = Stage.NONE;
    private String userName;
    private UserConfig user;
    private boolean passwordGiven;

    Authenticator(Map<String, UserConfig> users, RsaKeyPair rsa, byte[] nonce) {
        this.users = requireNonNull(users, "users is null");
        this.rsa = requireNonNull(rsa, "rsa is null");
        this.nonce = requireNonNull(nonce, "nonce is null").clone();
    }

    /** The connection is encrypted from now on: the full caching_sha2 path may take the plain password. */
    void tlsStarted() {
        tls = true;
    }

    boolean tls() {
        return tls;
    }

    /** The user the last exchange was for (null when unknown). */
    UserConfig user() {
        return user;
    }

    /**
     * Starts an exchange for {@code userName}, who answered the nonce for {@code plugin} (empty:
     * mysql_native_password) with {@code authResponse}; {@code sequence} is the id of the next packet to send.
     */
    Outcome begin(ChannelHandlerContext ctx, int sequence, String userName, String plugin, byte[] authResponse) {
        this.userName = userName;
        this.user = users.get(userName);
        String used = plugin.isEmpty() ? NativePassword.PLUGIN_NAME : plugin;
        String wanted = user == null ? NativePassword.PLUGIN_NAME : user.authPlugin();
        if (used.equals(wanted)) {
            return authenticate(ctx, sequence, authResponse);
        }
        stage = Stage.AUTH_SWITCH;
        ctx.writeAndFlush(new MySqlPacket(sequence, new AuthSwitchRequest(wanted, nonce).encode(ctx.alloc())));
        return Outcome.PENDING;
    }

    /** Takes the client's next packet of the exchange (the caller keeps ownership of it). */
    Outcome next(ChannelHandlerContext ctx, MySqlPacket packet) {
        int sequence = packet.sequenceId() + 1;
        return switch (stage) {
            case AUTH_SWITCH -> authenticate(ctx, sequence, bytes(packet));
            case SHA2_FULL -> sha2FullAuth(ctx, sequence, bytes(packet));
            case SHA2_RSA -> sha2Plain(ctx, sequence, rsa.decryptPassword(bytes(packet), nonce));
            case NONE -> throw new IllegalStateException("no authentication under way");
        };
    }

    /** Checks the client's scramble for the user's plugin (the one in use after any switch). */
    private Outcome authenticate(ChannelHandlerContext ctx, int sequence, byte[] authResponse) {
        stage = Stage.NONE;
        passwordGiven = authResponse.length > 0 && !(authResponse.length == 1 && authResponse[0] == 0);
        if (user == null) {
            return denied(ctx, sequence);
        }
        if (user.authPlugin().equals(CachingSha2Password.PLUGIN_NAME)) {
            boolean fast = user.sha256Stage2().map(stage2 -> CachingSha2Password.verifyFast(nonce, authResponse, stage2))
                    .orElse(false);
            if (fast) {
                ctx.write(new MySqlPacket(sequence, moreData(ctx, new byte[] {CachingSha2Password.FAST_AUTH_SUCCESS})));
                return accepted(sequence + 1);
            }
            // No cached digest, or a mismatch: ask for the password itself (over TLS, or RSA-encrypted).
            stage = Stage.SHA2_FULL;
            ctx.writeAndFlush(new MySqlPacket(sequence,
                    moreData(ctx, new byte[] {CachingSha2Password.PERFORM_FULL_AUTHENTICATION})));
            return Outcome.PENDING;
        }
        if (!NativePassword.verify(nonce, authResponse, user.nativeStage2())) {
            return denied(ctx, sequence);
        }
        return accepted(sequence);
    }

    private Outcome sha2FullAuth(ChannelHandlerContext ctx, int sequence, byte[] data) {
        stage = Stage.NONE;
        if (tls) {
            return sha2Plain(ctx, sequence, data);
        }
        if (data.length == 1 && data[0] == CachingSha2Password.REQUEST_PUBLIC_KEY) {
            stage = Stage.SHA2_RSA;
            ctx.writeAndFlush(new MySqlPacket(sequence, moreData(ctx, rsa.publicKeyPemBytes())));
            return Outcome.PENDING;
        }
        // A plain password over an unencrypted connection is refused, as MySQL does.
        return denied(ctx, sequence);
    }

    private Outcome sha2Plain(ChannelHandlerContext ctx, int sequence, byte[] password) {
        stage = Stage.NONE;
        if (!CachingSha2Password.verifyPlain(password, user)) {
            return denied(ctx, sequence);
        }
        return accepted(sequence);
    }

    private Outcome accepted(int sequence) {
        if (user.requireTls() && !tls) {
            return new Outcome(false, sequence, ErrPacket.of(ErrorCode.INSECURE_TRANSPORT, userName));
        }
        return new Outcome(false, sequence, null);
    }

    private Outcome denied(ChannelHandlerContext ctx, int sequence) {
        return new Outcome(false, sequence, ErrPacket.of(ErrorCode.ACCESS_DENIED, userName, clientHost(ctx), passwordGiven ? "YES" : "NO"));
    }

    /** The client's address as ERR 1045 and the session name it. */
    static String clientHost(ChannelHandlerContext ctx) {
        return ctx.channel().remoteAddress() instanceof InetSocketAddress address
                ? address.getAddress().getHostAddress() : "localhost";
    }

    private static ByteBuf moreData(ChannelHandlerContext ctx, byte[] data) {
        return ctx.alloc().buffer(1 + data.length).writeByte(AUTH_MORE_DATA).writeBytes(data);
    }

    private static byte[] bytes(MySqlPacket packet) {
        byte[] data = new byte[packet.payload().readableBytes()];
        packet.payload().getBytes(packet.payload().readerIndex(), data);
        return data;
    }
}
