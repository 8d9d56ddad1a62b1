package io.sluice.namesrv.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.transport.Credentials;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The name server's two users, read from the broker's JSON keys: empty text is no user; anything that is not an
 * object with both members is refused naming the key, whether cut off, of the wrong shape or missing a half; the
 * brokers' own credentials win a clash of access keys.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class NamesrvAuthenticationTest {

    @Test
    void bothUsersReadTheirOwnMembers() {
        assertEquals(Optional.of(new Credentials("admin", "s3cret")),
                NamesrvAuthentication.parseUser(" {\"username\":\"admin\",\"password\":\"s3cret\"} "));
        assertEquals(Optional.of(new Credentials("broker", "b-secret")),
                NamesrvAuthentication.parseInner("{\"accessKey\":\"broker\",\"secretKey\":\"b-secret\"}"));
        assertEquals(Optional.empty(), NamesrvAuthentication.parseUser(""));
        assertEquals(Optional.empty(), NamesrvAuthentication.parseInner("   "));
        assertEquals(Optional.empty(), NamesrvAuthentication.parseInner(null));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"username\"", "{\"username\"  ", "{\"username\":", "{\"username\":\"a\",", "[1]",
        "null", "\"admin\"", "{\"username\":\"admin\"}", "{\"password\":\"p\"}",
        "{\"username\":\"\",\"password\":\"p\"}", "{\"accessKey\":\"a\",\"secretKey\":\"b\"}"})
    void aBadUserIsRefusedNamingItsKey(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NamesrvAuthentication.parseUser(text), text);
        assertTrue(e.getMessage().startsWith("initAuthenticationUser "), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"accessKey\"", "{\"accessKey\":\"a\"", "{\"accessKey\":\"a\"}", "{}"})
    void badBrokerCredentialsAreRefusedNamingTheirKey(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NamesrvAuthentication.parseInner(text), text);
        assertTrue(e.getMessage().startsWith("innerClientAuthenticationCredentials "), e.getMessage());
    }

    @Test
    void theBrokersCredentialsWinAClashAndAnEnabledServerNeedsAUser() {
        NamesrvAuthentication both = new NamesrvAuthentication(true, Optional.of(new Credentials("k", "admin")),
                Optional.of(new Credentials("k", "inner")));
        assertEquals(Map.of("k", "inner"), both.secretsByAccessKey());
        NamesrvAuthentication two = new NamesrvAuthentication(true, Optional.of(new Credentials("a", "1")),
                Optional.of(new Credentials("b", "2")));
        assertEquals(List.of("a", "b"), List.copyOf(two.secretsByAccessKey().keySet()));
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> new NamesrvAuthentication(true, Optional.empty(), Optional.empty()));
        assertTrue(none.getMessage().contains("authenticationEnabled needs"), none.getMessage());
        assertTrue(NamesrvAuthentication.DISABLED.secretsByAccessKey().isEmpty());
    }
}
