package io.shardgate.replication.stream.apply;

import io.shardgate.replication.gtid.MariaDbGtid;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class WatermarkTrackerTest {
    @Test
    void advancesOnlyOverAContiguousDonePrefix() {
        WatermarkTracker tracker = new WatermarkTracker(MariaDbGtidPosition.parse("0-1-4"));
        long five = tracker.register(MariaDbGtid.parse("0-1-5"));
        long six = tracker.register(MariaDbGtid.parse("0-1-6"));
        long seven = tracker.register(MariaDbGtid.parse("0-1-7"));

        tracker.done(seven);
        assertThat(tracker.watermark()).hasToString("0-1-4");
        tracker.done(five);
        assertThat(tracker.watermark()).hasToString("0-1-5");
        assertThat(tracker.pending()).isEqualTo(2);
        tracker.done(six);
        assertThat(tracker.watermark()).hasToString("0-1-7");
        assertThat(tracker.pending()).isZero();
    }

    @Test
    void keepsEveryDomain() {
        WatermarkTracker tracker = new WatermarkTracker(MariaDbGtidPosition.empty());
        tracker.done(tracker.register(MariaDbGtid.parse("1-2-10")));
        tracker.done(tracker.register(MariaDbGtid.parse("0-1-3")));
        assertThat(tracker.watermark()).isEqualTo(MariaDbGtidPosition.parse("0-1-3,1-2-10"));
    }

    @Test
    void growsPastItsFirstCapacityWithTransactionsStillOpenAtTheFront() {
        WatermarkTracker tracker = new WatermarkTracker(MariaDbGtidPosition.empty());
        long first = tracker.register(MariaDbGtid.parse("0-1-1"));
        for (int seq = 2; seq <= 5000; seq++) {
            tracker.done(tracker.register(MariaDbGtid.parse("0-1-" + seq)));
        }
        assertThat(tracker.pending()).isEqualTo(5000);
        assertThat(tracker.watermark().isEmpty()).isTrue();

        tracker.done(first);
        assertThat(tracker.watermark()).hasToString("0-1-5000");
        assertThat(tracker.pending()).isZero();
    }

    @Test
    void refusesATicketThatIsNotPending() {
        WatermarkTracker tracker = new WatermarkTracker(MariaDbGtidPosition.empty());
        long ticket = tracker.register(MariaDbGtid.parse("0-1-1"));
        tracker.done(ticket);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> tracker.done(ticket))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anXaPrepareHoldsTheWatermarkBeforeItUntilTheTransactionThatEndsItIsDone() {
        WatermarkTracker tracker = new WatermarkTracker(MariaDbGtidPosition.parse("0-1-2"));
        tracker.prepareXa(MariaDbGtid.parse("0-1-3"));
        tracker.done(tracker.register(MariaDbGtid.parse("0-1-4")), tracker.endXa(null));
        assertThat(tracker.watermark()).as("a restart must read the prepare again").hasToString("0-1-2");
        assertThat(tracker.unapplied()).as("nothing to apply: the prepare waits for its end").isZero();
        long commit = tracker.register(MariaDbGtid.parse("0-1-5"));
        Long prepare = tracker.endXa(MariaDbGtid.parse("0-1-3"));
        assertThat(prepare).isNotNull();
        assertThat(tracker.endXa(MariaDbGtid.parse("0-1-3"))).as("taken once").isNull();
        assertThat(tracker.watermark()).hasToString("0-1-2");
        tracker.done(commit, prepare);
        assertThat(tracker.watermark()).hasToString("0-1-5");
        assertThat(tracker.pending()).isZero();
    }
}
