package io.sluice.broker.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The bounds of every numeric broker key, as a {@code broker.conf} reaches them (through the settings builder):
 * each end of the range is accepted, one past either end is refused with an error that names the key, the value
 * and the range; and the cross-key rules hold at their exact boundaries.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BrokerConfigBoundsTest {

    private static final Pattern RANGE = Pattern.compile("out of range (-?\\d+)\\.\\.(-?\\d+)");

    private static BrokerSettings.Builder builder() {
        return BrokerSettings.builder("bounds.conf").set(BrokerConfigKeys.STORE_PATH_ROOT_DIR, Path.of("/tmp/x"));
    }

    @Test
    void everyNumericKeyTakesBothEndsOfItsRangeAndNothingBeyond() {
        List<String> checked = new ArrayList<>();
        for (ConfigKey<?> key : BrokerConfigKeys.all()) {
            if (!key.typeName().equals("int") && !key.typeName().equals("long")) {
                continue;
            }
            long[] range = rangeOf(key);
            if (range == null) {
                continue;
            }
            long min = range[0];
            long max = range[1];
            assertEquals(min, ((Number) key.parse(Long.toString(min))).longValue(), key.name());
            assertEquals(max, ((Number) key.parse(Long.toString(max))).longValue(), key.name());
            builder().setText(key.name(), Long.toString(min));
            builder().setText(key.name(), " " + max + " ");
            if (min > Long.MIN_VALUE) {
                assertRefusedNamingKeyValueAndRange(key, Long.toString(min - 1), min, max);
            }
            if (max < Long.MAX_VALUE) {
                assertRefusedNamingKeyValueAndRange(key, Long.toString(max + 1), min, max);
            }
            if (key.hasDefault()) {
                long value = ((Number) key.defaultValue()).longValue();
                assertTrue(value >= min && value <= max, key.name() + " default " + value + " lies in its range");
            }
            checked.add(key.name());
        }
        assertTrue(checked.size() > 40, "ranges found for " + checked);
    }

    private static long[] rangeOf(ConfigKey<?> key) {
        for (String probe : List.of(Long.toString(Long.MIN_VALUE), Long.toString(Long.MAX_VALUE))) {
            try {
                key.parse(probe);
            } catch (IllegalArgumentException e) {
                Matcher m = RANGE.matcher(String.valueOf(e.getMessage()));
                if (m.find()) {
                    return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))};
                }
            }
        }
        return null;
    }

    private static void assertRefusedNamingKeyValueAndRange(ConfigKey<?> key, String value, long min, long max) {
        ConfigException e = assertThrows(ConfigException.class, () -> builder().setText(key.name(), value),
                key.name() + "=" + value);
        assertEquals(key.name(), e.key());
        assertEquals("bounds.conf", e.source());
        assertEquals("bad value '" + value + "' for key '" + key.name() + "' in bounds.conf: out of range " + min
                + ".." + max, e.getMessage());
    }

    @Test
    void theLargestRecordMustFitASegmentExactly() {
        int maxMessage = 1024 * 1024;
        int fits = maxMessage + BrokerSettings.RECORD_OVERHEAD_BYTES;
        BrokerSettings settings = builder().set(BrokerConfigKeys.MAX_MESSAGE_SIZE, maxMessage)
                .set(BrokerConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG, fits).build();
        assertEquals(fits, settings.commitLogSegmentBytes());
        ConfigException e = assertThrows(ConfigException.class, () -> builder()
                .set(BrokerConfigKeys.MAX_MESSAGE_SIZE, maxMessage)
                .set(BrokerConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG, fits - 1).build());
        assertEquals("mappedFileSizeCommitLog", e.key());
        assertTrue(e.getMessage().contains((fits - 1) + " cannot hold the largest record: maxMessageSize "
                + maxMessage), e.getMessage());
    }

    @Test
    void aFrameMustExceedTheLargestMessage() {
        int maxMessage = 1024 * 1024;
        builder().set(BrokerConfigKeys.MAX_MESSAGE_SIZE, maxMessage)
                .set(BrokerConfigKeys.SERVER_MAX_FRAME_BYTES, maxMessage + 1).build();
        ConfigException e = assertThrows(ConfigException.class, () -> builder()
                .set(BrokerConfigKeys.MAX_MESSAGE_SIZE, maxMessage)
                .set(BrokerConfigKeys.SERVER_MAX_FRAME_BYTES, maxMessage).build());
        assertEquals("serverMaxFrameBytes", e.key());
        assertTrue(e.getMessage().endsWith(maxMessage + " must exceed maxMessageSize " + maxMessage), e.getMessage());
    }

    @Test
    void aSlaveNeedsAWayToItsMasterAndControllerModeNeedsControllers() {
        ConfigException slave = assertThrows(ConfigException.class, () -> builder()
                .set(BrokerConfigKeys.BROKER_ROLE, BrokerRole.SLAVE).set(BrokerConfigKeys.BROKER_ID, 1L).build());
        assertEquals("haMasterAddress", slave.key());
        builder().set(BrokerConfigKeys.BROKER_ROLE, BrokerRole.SLAVE).set(BrokerConfigKeys.BROKER_ID, 1L)
                .setText("haMasterAddress", "127.0.0.1:10912").build();
        builder().set(BrokerConfigKeys.BROKER_ROLE, BrokerRole.SLAVE).set(BrokerConfigKeys.BROKER_ID, 1L)
                .setText("namesrvAddr", "127.0.0.1:9876").build();
        ConfigException controller = assertThrows(ConfigException.class, () -> builder()
                .setText("enableControllerMode", "true").build());
        assertEquals("controllerAddr", controller.key());
        assertTrue(controller.getMessage().contains("is required with enableControllerMode"),
                controller.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"accessKey\"", "{\"accessKey\"  ", "{\"accessKey\":", "{\"accessKey\":\"a\",", "["})
    void cutCredentialsAreABadValueOfTheirKey(String json) {
        for (String name : List.of("innerClientAuthenticationCredentials", "initAuthenticationUser")) {
            ConfigException e = assertThrows(ConfigException.class, () -> builder().setText(name, json),
                    name + "=" + json);
            assertEquals(name, e.key());
            assertTrue(e.getMessage().startsWith("bad value '" + json + "' for key '" + name + "' in bounds.conf:"
                    + " expected {\""), e.getMessage());
        }
    }
}
