package io.shardgate.replication.topology;

import java.security.SecureRandom;
import java.util.HexFormat;

import static java.util.Objects.requireNonNull;

/**
 * The accounts every node of a topology has. They exist in the data directory template, before
 * any binary log is written, so they are not part of any node's GTID history.
 *
 * @param user         the account the proxy and the test harness connect with over TCP (all privileges)
 * @param password     its password ({@code mysql_native_password})
 * @param replUser     the account replicas connect to their primary with
 * @param replPassword its password
 */
public record Accounts(String user, String password, String replUser, String replPassword) {
    public Accounts {
        requireNonNull(user, "user is null");
        requireNonNull(password, "password is null");
        requireNonNull(replUser, "replUser is null");
        requireNonNull(replPassword, "replPassword is null");
    }

    /** Fresh random passwords for the fixed account names {@code shardgate} and {@code repl}. */
    public static Accounts generate() {
        SecureRandom random = new SecureRandom();
        return new Accounts("shardgate", secret(random), "repl", secret(random));
    }

    private static String secret(SecureRandom random) {
        byte[] bytes = new byte[12];
        random.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** SQL that creates both accounts; run where the binary log is off. */
    String createSql() {
        return "CREATE USER '" + user + "'@'%' IDENTIFIED BY '" + password + "';\n"
                + "GRANT ALL PRIVILEGES ON *.* TO '" + user + "'@'%' WITH GRANT OPTION;\n"
                + "CREATE USER '" + replUser + "'@'%' IDENTIFIED BY '" + replPassword + "';\n"
                + "GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO '" + replUser + "'@'%';\n";
    }
}
