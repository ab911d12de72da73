package io.shardgate.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.Map;

/**
 * Issue 16's fuzzer ({@link PacketFuzzer}) against an unsharded proxy: 10,000 mutated packets of
 * every command, before and after authentication, plain and zlib; no case hangs past its bound, no
 * backend connection stays in use, a bystander session keeps its state, new clients are served.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PacketFuzzIT {
    private ProxyFixture proxy;

    @BeforeAll
    void start() {
        StringBuilder rows = new StringBuilder("INSERT INTO fuzz.t VALUES ");
        for (int i = 1; i <= 40; i++) {
            rows.append(i == 1 ? "" : ", ").append('(').append(i).append(", 'v").append(i).append("')");
        }
        proxy = ProxyFixture.withOwnShard(Map.of(), PacketFuzzer.LIMITS_AND_USERS,
                "CREATE DATABASE fuzz", "CREATE TABLE fuzz.t (id INT PRIMARY KEY, v VARCHAR(100))", rows.toString(),
                "CREATE TABLE fuzz.w (id INT AUTO_INCREMENT PRIMARY KEY, v VARBINARY(255))",
                "CREATE TABLE fuzz.bystander (id INT PRIMARY KEY)");
    }

    @AfterAll
    void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void tenThousandMalformedPacketsLeaveNoHangNoLeakAndTheBystanderUntouched() throws Exception {
        PacketFuzzer.run(proxy, PacketFuzzer.CASES, false);
    }
}
