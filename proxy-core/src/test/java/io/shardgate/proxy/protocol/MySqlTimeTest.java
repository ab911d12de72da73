package io.shardgate.proxy.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Binary forms are those MariaDB 10.11.19 sent for the same values (see {@link MariaDbCapture}). */
class MySqlTimeTest {

    private static String dateTimeHex(String text) {
        ByteBuf out = Unpooled.buffer();
        MySqlTime.parseDateTime(text).writeDateTime(out);
        return ByteBufUtil.hexDump(out);
    }

    private static String timeHex(String text) {
        ByteBuf out = Unpooled.buffer();
        MySqlTime.parseTime(text).writeTime(out);
        return ByteBufUtil.hexDump(out);
    }

    @ParameterizedTest
    @CsvSource({
        "0000-00-00, 00",
        "0000-00-00 00:00:00, 00",
        "0000-00-00 00:00:00.000000, 00",
        "2024-01-02, 04e8070102",
        "2024-02-00, 04e8070200",
        "2024-01-02 00:00:00, 04e8070102",
        "2024-01-02 03:04:05, 07e8070102030405",
        "2024-01-02 03:04:05.000000, 07e8070102030405",
        "2024-01-02 03:04:05.123, 0be807010203040578e00100",
        "2024-01-02 03:04:05.123000, 0be807010203040578e00100",
        "2024-01-02T03:04:05, 07e8070102030405",
    })
    void writesDatesAndDatetimesInTheirShortestForm(String text, String hex) {
        assertThat(dateTimeHex(text)).isEqualTo(hex);
    }

    @ParameterizedTest
    @CsvSource({
        "00:00:00, 00",
        "00:00:00.000000, 00",
        "-838:59:59, 080122000000163b3b",
        "-25:00:01.000500, 0c01010000000100 01f4010000",
        "26:03:04, 080001000000020304",
        "-00:00:00.5, 0c010000000000000020a10700",
        "-25:00:01.500, 0c01010000000100 0120a10700",
        "2024-01-02 03:04:05, 080000000000030405",
    })
    void writesTimesWithSignAndDays(String text, String hex) {
        assertThat(timeHex(text)).isEqualTo(hex.replace(" ", ""));
    }

    @Test
    void readsBackWhatItWrites() {
        for (String text : new String[] {"2024-01-02 03:04:05.000500", "0000-00-00 00:00:00", "2024-01-02"}) {
            ByteBuf out = Unpooled.buffer();
            MySqlTime written = MySqlTime.parseDateTime(text);
            written.writeDateTime(out);
            assertThat(MySqlTime.readDateTime(out)).isEqualTo(written);
        }
        ByteBuf out = Unpooled.buffer();
        MySqlTime time = MySqlTime.parseTime("-51:04:05.000006");
        time.writeTime(out);
        assertThat(MySqlTime.readTime(out)).isEqualTo(time);
        assertThat(time.timeText(6)).isEqualTo("-51:04:05.000006");
    }

    @Test
    void printsTheTextFormsWithTheAskedFractionDigits() {
        MySqlTime t = MySqlTime.parseDateTime("2024-01-02 03:04:05.123456");

        assertThat(t.dateText()).isEqualTo("2024-01-02");
        assertThat(t.dateTimeText(0)).isEqualTo("2024-01-02 03:04:05");
        assertThat(t.dateTimeText(3)).isEqualTo("2024-01-02 03:04:05.123");
        assertThat(t.dateTimeText(6)).isEqualTo("2024-01-02 03:04:05.123456");
        assertThat(t.dateTimeText(31)).isEqualTo("2024-01-02 03:04:05");
        assertThat(MySqlTime.parseTime("-838:59:59").timeText(0)).isEqualTo("-838:59:59");
        assertThat(MySqlTime.parseTime("1:2:3").timeText(2)).isEqualTo("01:02:03.00");
    }

    @Test
    void takesJavaTimeValues() {
        assertThat(MySqlTime.of(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_000_000)))
                .isEqualTo(new MySqlTime(false, 2024, 1, 2, 3, 4, 5, 123_000));
        assertThat(MySqlTime.of(LocalDate.of(2024, 1, 2))).isEqualTo(new MySqlTime(false, 2024, 1, 2, 0, 0, 0, 0));
        assertThat(MySqlTime.of(LocalTime.of(3, 4, 5))).isEqualTo(new MySqlTime(false, 0, 0, 0, 3, 4, 5, 0));
        assertThat(MySqlTime.of(Duration.ofHours(-25).minusMillis(1500)))
                .isEqualTo(new MySqlTime(true, 0, 0, 0, 25, 0, 1, 500_000));
        assertThat(MySqlTime.of("2024-01-02")).isNull();
    }

    @Test
    void rejectsMalformedTextAndBinary() {
        assertThatThrownBy(() -> MySqlTime.parseDateTime("2024-01")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("temporal value: '2024-01' (expected: 'YYYY-MM-DD[ HH:MM:SS[.ffffff]]' or '[-]HH:MM:SS[.ffffff]')");
        assertThatThrownBy(() -> MySqlTime.parseTime("12:34")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MySqlTime.parseDateTime("2024-01-02 03:04:05x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MySqlTime.readDateTime(Unpooled.wrappedBuffer(new byte[] {7, 1, 2})))
                .isInstanceOf(MalformedPacketException.class).hasMessage("binary datetime of length 7: 2 bytes left (expected: >= 7)");
        assertThatThrownBy(() -> MySqlTime.readDateTime(Unpooled.wrappedBuffer(new byte[] {2, 1, 2})))
                .isInstanceOf(MalformedPacketException.class).hasMessage("binary datetime length: 2 (expected: 0, 4, 7 or 11)");
        assertThatThrownBy(() -> MySqlTime.readTime(Unpooled.wrappedBuffer(new byte[] {4, 0, 0, 0, 0})))
                .isInstanceOf(MalformedPacketException.class).hasMessage("binary time length: 4 (expected: 0, 8 or 12)");
    }
}
