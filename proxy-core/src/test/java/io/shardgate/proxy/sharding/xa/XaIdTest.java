package io.shardgate.proxy.sharding.xa;

import io.shardgate.proxy.sharding.GlobalTransactionIds;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class XaIdTest {

    @Test
    void rendersGtridAndBqualInHexWithShardgatesFormatId() {
        XaId id = new XaId("sg-00ff-7", "s0");

        assertThat(id.sql()).isEqualTo("X'73672d303066662d37',X'7330',21319");
        assertThat(XaId.FORMAT_ID).isEqualTo(21319);
    }

    @Test
    void statementsWrapTheXid() {
        XaId id = new XaId("g", "s1");
        String xid = "X'67',X'7331',21319";

        assertThat(XaStatements.start(id)).isEqualTo("XA START " + xid);
        assertThat(XaStatements.end(id)).isEqualTo("XA END " + xid);
        assertThat(XaStatements.prepare(id)).isEqualTo("XA PREPARE " + xid);
        assertThat(XaStatements.commit(id)).isEqualTo("XA COMMIT " + xid);
        assertThat(XaStatements.commitOnePhase(id)).isEqualTo("XA COMMIT " + xid + " ONE PHASE");
        assertThat(XaStatements.rollback(id)).isEqualTo("XA ROLLBACK " + xid);
    }

    @Test
    void quotesAndNonAsciiNamesAreSafeInHex() {
        XaId id = new XaId("sg-1-1", "shard'é");

        assertThat(id.sql()).doesNotContain("'é").contains("X'736861726427c3a9'");
    }

    @Test
    void parsesARecoverRowBack() {
        byte[] data = "sg-abc-42s1".getBytes(StandardCharsets.US_ASCII);

        Optional<XaId> id = XaId.fromRecoverRow(XaId.FORMAT_ID, 9, 2, data);

        assertThat(id).contains(new XaId("sg-abc-42", "s1"));
    }

    @Test
    void roundTripsMultiByteBqual() {
        XaId original = new XaId("sg-1-9", "分片");
        byte[] gtrid = original.gtrid().getBytes(StandardCharsets.UTF_8);
        byte[] bqual = original.bqual().getBytes(StandardCharsets.UTF_8);
        byte[] data = new byte[gtrid.length + bqual.length];
        System.arraycopy(gtrid, 0, data, 0, gtrid.length);
        System.arraycopy(bqual, 0, data, gtrid.length, bqual.length);

        assertThat(XaId.fromRecoverRow(XaId.FORMAT_ID, gtrid.length, bqual.length, data)).contains(original);
    }

    @Test
    void ignoresOtherFormatIds() {
        assertThat(XaId.fromRecoverRow(1, 2, 2, "a1s1".getBytes(StandardCharsets.US_ASCII))).isEmpty();
    }

    @Test
    void rejectsARowWhoseLengthsDoNotAddUp() {
        assertThatThrownBy(() -> XaId.fromRecoverRow(XaId.FORMAT_ID, 5, 2, "sg-1s0".getBytes(StandardCharsets.US_ASCII)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("XA RECOVER row with gtrid_length 5, bqual_length 2 and 6 bytes of data"
                        + " (expected: lengths adding up to the data)");
    }

    @Test
    void rejectsARowThatIsNotUtf8() {
        byte[] data = {'g', (byte) 0xff, 's', '0'};

        assertThatThrownBy(() -> XaId.fromRecoverRow(XaId.FORMAT_ID, 2, 2, data))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not UTF-8: 67ff7330");
    }

    @Test
    void rejectsEmptyAndOverlongParts() {
        assertThatThrownBy(() -> new XaId("", "s0")).hasMessage("gtrid '' is 0 bytes (expected: 1..64)");
        String long65 = "x".repeat(65);
        assertThatThrownBy(() -> new XaId("g", long65)).hasMessage("bqual '" + long65 + "' is 65 bytes (expected: 1..64)");
        assertThat(new XaId("x".repeat(64), "s").gtrid()).hasSize(64);
    }

    @Test
    void gtridsAreDistinctAndCarryTheInstanceId() {
        GlobalTransactionIds ids = new GlobalTransactionIds("0a1b");

        assertThat(ids.next()).isEqualTo("sg-0a1b-1");
        assertThat(ids.next()).isEqualTo("sg-0a1b-2");
    }

    @Test
    void everyProcessStartGetsItsOwnInstanceId() {
        Set<String> instances = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            GlobalTransactionIds ids = new GlobalTransactionIds();
            assertThat(ids.instanceId()).matches("[0-9a-f]{16}");
            instances.add(ids.instanceId());
            // The longest gtrid still fits XA's 64 bytes with room to spare.
            assertThat(new XaId("sg-" + ids.instanceId() + "-" + Long.MAX_VALUE, "s0").gtrid()).hasSizeLessThan(64);
        }
        assertThat(instances).hasSize(100);
    }

    @Test
    void rejectsAnInstanceIdThatIsNotShortHex() {
        assertThatThrownBy(() -> new GlobalTransactionIds("ABC"))
                .hasMessage("instance id 'ABC' (expected: 1 to 16 lowercase hex digits)");
    }
}
