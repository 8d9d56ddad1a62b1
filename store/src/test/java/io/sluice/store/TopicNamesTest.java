package io.sluice.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TopicNamesTest {

    @Test
    void shouldRejectEmptyAndNullNames() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TopicNames.validate(""))
                .getMessage().contains("empty"));
        assertThrows(IllegalArgumentException.class, () -> TopicNames.validate(null));
        assertFalse(TopicNames.isValid(""));
        assertFalse(TopicNames.isValid(null));
    }

    @Test
    void shouldAcceptNamesUpTo127CharactersAndRejectLonger() {
        assertEquals("a".repeat(127), TopicNames.validate("a".repeat(127)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TopicNames.validate("a".repeat(128)));
        assertTrue(e.getMessage().contains("128"), e.getMessage());
        assertTrue(e.getMessage().contains("127"), e.getMessage());
        assertFalse(TopicNames.isValid("a".repeat(128)));
    }

    @Test
    void shouldAllowRetryAndDlqTopicsUpTo255Characters() {
        String retry = "%RETRY%" + "g".repeat(248);
        String dlq = "%DLQ%" + "g".repeat(250);
        assertEquals(255, retry.length());
        TopicNames.validate(retry);
        TopicNames.validate(dlq);
        assertThrows(IllegalArgumentException.class, () -> TopicNames.validate(retry + "x"));
        assertThrows(IllegalArgumentException.class, () -> TopicNames.validate(dlq + "x"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a b", "a.b", "a:b", "a/b", "topic\u00e9", "a\u0000b", "a*b", "a,b", " a"})
    void shouldRejectIllegalCharactersNamingTheTopic(String name) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TopicNames.validate(name));
        assertTrue(e.getMessage().contains(name), e.getMessage());
        assertTrue(e.getMessage().contains("illegal characters"), e.getMessage());
        assertFalse(TopicNames.isValid(name));
    }

    @Test
    void shouldAcceptEveryLegalCharacter() {
        TopicNames.validate("azAZ09%|_-");
        assertTrue(TopicNames.isValid("RocketMQ-Benchmark-bcq"));
    }

    @Test
    void shouldTreatSystemTopicsAsValidButNotUserCreatable() {
        TopicNames.validate("TBW102");
        TopicNames.validate("SCHEDULE_TOPIC_XXXX");
        assertTrue(TopicNames.isSystemTopic("TBW102"));
        assertTrue(TopicNames.isSystemTopic("rmq_sys_anything"));
        assertFalse(TopicNames.isSystemTopic("orders"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TopicNames.validateUserTopic("TBW102"));
        assertTrue(e.getMessage().contains("conflict with system topic"), e.getMessage());
        assertEquals("orders", TopicNames.validateUserTopic("orders"));
        assertTrue(TopicNames.isNotSendable("SCHEDULE_TOPIC_XXXX"));
        assertFalse(TopicNames.isNotSendable("TBW102"));
    }

    @Test
    void shouldBuildRetryAndDlqTopicsFromValidGroups() {
        assertEquals("%RETRY%sub-x", TopicNames.retryTopic("sub-x"));
        assertEquals("%DLQ%sub-x", TopicNames.dlqTopic("sub-x"));
        assertTrue(TopicNames.isRetryTopic("%RETRY%sub-x"));
        assertTrue(TopicNames.isDlqTopic("%DLQ%sub-x"));
        TopicNames.validate(TopicNames.retryTopic("g".repeat(TopicNames.MAX_GROUP_LENGTH)));
    }

    @Test
    void shouldValidateGroupNames() {
        assertThrows(IllegalArgumentException.class, () -> TopicNames.validateGroup(""));
        assertThrows(IllegalArgumentException.class, () -> TopicNames.validateGroup("g g"));
        assertThrows(IllegalArgumentException.class,
                () -> TopicNames.validateGroup("g".repeat(TopicNames.MAX_GROUP_LENGTH + 1)));
        assertEquals("CLIENT_INNER_PRODUCER", TopicNames.validateGroup("CLIENT_INNER_PRODUCER"));
        assertTrue(TopicNames.isValidGroup("sub-x"));
        assertFalse(TopicNames.isValidGroup("sub x"));
    }
}
