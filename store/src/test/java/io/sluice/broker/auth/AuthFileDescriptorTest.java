package io.sluice.broker.auth;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class AuthFileDescriptorTest {

    @Test
    void aFileCutAfterAMemberNameIsRefusedAsNotJson() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> AuthFileDescriptor.decode("{\"version\"".getBytes(StandardCharsets.UTF_8)));
        assertTrue(refused.getMessage().startsWith("not JSON"), refused.getMessage());
    }

    @Test
    void aFileOfAnotherVersionIsRefused() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> AuthFileDescriptor.decode("{\"version\": 99}".getBytes(StandardCharsets.UTF_8)));
        assertTrue(refused.getMessage().contains("version"), refused.getMessage());
    }
}
