package io.shardgate.tools.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CpuClockTest {
    @Test
    void addsUserAndSystemTicksCountedAfterTheCommandName() {
        // A command name with a space and a ')' of its own: fields are counted after its last ')'.
        String stat = "4242 (ha proxy) x) S 1 4242 4242 0 -1 4194560 2061 0 0 0 1234 567 0 0 20 0 2 0 3000 1 2 3";
        assertThat(CpuClock.statTicks(stat)).isEqualTo(1234 + 567);
    }

    @Test
    void refusesTextThatIsNotAStatLine() {
        assertThatThrownBy(() -> CpuClock.statTicks("no parenthesis")).hasMessageContaining("not a /proc/[pid]/stat line");
        assertThatThrownBy(() -> CpuClock.statTicks("1 (short) S 1 2")).hasMessageContaining("not a /proc/[pid]/stat line");
    }

    @Test
    void thisJvmsClockAdvancesWithWork() throws Exception {
        CpuClock self = CpuClock.self();
        long before = self.cpuNanos();
        long sum = 0;
        for (int i = 0; i < 50_000_000 && self.cpuNanos() == before; i++) {
            sum += Integer.toString(i).hashCode();
        }
        assertThat(self.cpuNanos()).as("after %d", sum).isGreaterThan(before);
    }
}
