package io.sluice.namesrv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Properties;
import org.junit.jupiter.api.Test;

class NamesrvSettingsTest {

    private static Properties props(String... keyValues) {
        Properties properties = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            properties.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return properties;
    }

    @Test
    void shouldDefaultToTheApacheValues() {
        NamesrvSettings settings = NamesrvSettings.defaults();

        assertEquals(9876, settings.listenPort());
        assertEquals(5_000, settings.scanIntervalMs());
        assertEquals(120_000, settings.brokerExpiryMs());
        assertEquals(120_000, settings.connectionIdleMs());
        assertTrue(settings.enableAllTopicList());
    }

    @Test
    void shouldOverrideDefaultsFromProperties() {
        NamesrvSettings settings = NamesrvSettings.fromProperties(props("listenPort", " 19876 ",
                "listenAddress", "127.0.0.1", "scanIntervalMs", "1000", "brokerExpiryMs", "30000",
                "connectionIdleMs", "60000", "enableAllTopicList", "FALSE"));

        assertEquals(new NamesrvSettings("127.0.0.1", 19876, 1000, 30_000, 60_000, false), settings);
    }

    @Test
    void shouldNameAnUnknownKey() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> NamesrvSettings.fromProperties(props("listenPrt", "1")));

        assertTrue(error.getMessage().contains("'listenPrt'"), error.getMessage());
    }

    @Test
    void shouldNameABadValue() {
        IllegalArgumentException notNumber = assertThrows(IllegalArgumentException.class,
                () -> NamesrvSettings.fromProperties(props("scanIntervalMs", "5s")));
        IllegalArgumentException outOfRange = assertThrows(IllegalArgumentException.class,
                () -> NamesrvSettings.fromProperties(props("listenPort", "70000")));
        IllegalArgumentException notBoolean = assertThrows(IllegalArgumentException.class,
                () -> NamesrvSettings.fromProperties(props("enableAllTopicList", "yes")));
        IllegalArgumentException notPositive = assertThrows(IllegalArgumentException.class,
                () -> NamesrvSettings.defaults().withExpiry(0, 1));

        assertTrue(notNumber.getMessage().contains("scanIntervalMs"), notNumber.getMessage());
        assertTrue(outOfRange.getMessage().contains("listenPort"), outOfRange.getMessage());
        assertTrue(notBoolean.getMessage().contains("enableAllTopicList"), notBoolean.getMessage());
        assertTrue(notPositive.getMessage().contains("scanIntervalMs"), notPositive.getMessage());
    }

    @Test
    void shouldReadTheAuthenticationKeys() {
        NamesrvSettings settings = NamesrvSettings.fromProperties(props("authenticationEnabled", "true",
                "initAuthenticationUser", "{\"username\":\"root\",\"password\":\"pw\"}",
                "innerClientAuthenticationCredentials", "{\"accessKey\":\"inner\",\"secretKey\":\"s\"}"));

        assertTrue(settings.authentication().enabled());
        assertEquals(java.util.Map.of("root", "pw", "inner", "s"), settings.authentication().secretsByAccessKey());
        IllegalArgumentException noUser = assertThrows(IllegalArgumentException.class,
                () -> NamesrvSettings.fromProperties(props("authenticationEnabled", "true")));
        assertTrue(noUser.getMessage().contains("innerClientAuthenticationCredentials"), noUser.getMessage());
    }
}
