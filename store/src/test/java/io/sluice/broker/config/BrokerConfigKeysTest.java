package io.sluice.broker.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BrokerConfigKeysTest {

    @Test
    void shouldDescribeEveryKeyInOneMarkdownRow() {
        String table = BrokerConfigKeys.describe();
        String[] lines = table.split("\n");
        assertEquals(BrokerConfigKeys.all().size() + 2, lines.length);
        for (ConfigKey<?> key : BrokerConfigKeys.all()) {
            assertTrue(table.contains("| `" + key.name() + "` |"), key.name());
            assertFalse(key.doc().isBlank(), key.name());
        }
        assertTrue(table.contains("| `deleteWhen` | hour list | `04` | hour of day |"), table);
        assertTrue(table.contains("| `storePathRootDir` | path | `${user.home}/store` |"), table);
    }

    @Test
    void shouldDefineEachNameOnce() {
        Set<String> names = new HashSet<>();
        for (ConfigKey<?> key : BrokerConfigKeys.all()) {
            assertTrue(names.add(key.name()), key.name());
            assertEquals(key, BrokerConfigKeys.find(key.name()).orElseThrow());
        }
        assertTrue(BrokerConfigKeys.find("flushdisktype").isEmpty(), "names are case-sensitive");
    }

    @Test
    void everyFixedDefaultShouldReadBackThroughItsOwnParser() {
        for (ConfigKey<?> key : BrokerConfigKeys.all()) {
            if (key.hasDefault()) {
                assertRoundTrip(key);
            }
        }
    }

    private static <T> void assertRoundTrip(ConfigKey<T> key) {
        assertEquals(key.defaultValue(), key.parse(key.format(key.defaultValue())), key.name());
    }
}
