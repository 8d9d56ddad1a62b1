package io.sluice.namesrv.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * A controller command reads back from its Raft log entry as it was written, whatever its names hold, and an entry
 * that is not a command is refused with an {@link IllegalArgumentException} naming what is wrong (which the state
 * machine applies as a refusal on every controller alike), never with another exception.
 */
class ControllerLogDescriptorPropertyTest {

    @Property(tries = 300)
    void aCommandDecodesToWhatWasEncoded(@ForAll("commands") ControllerCommand command) {
        assertEquals(command, ControllerLogDescriptor.decode(ControllerLogDescriptor.encode(command)));
    }

    @Property(tries = 200)
    void anApplyResultDecodesToWhatWasEncoded(@ForAll("results") ApplyResult result) {
        assertEquals(result, ControllerLogDescriptor.decodeResult(ControllerLogDescriptor.encodeResult(result)));
    }

    @Property(tries = 300)
    void anyTextIsACommandOrRefusedWithAReason(@ForAll("entries") String entry) {
        try {
            ControllerCommand command = ControllerLogDescriptor.decode(entry.getBytes(StandardCharsets.UTF_8));
            assertTrue(!command.brokerName().isBlank(), entry);
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage() != null && !e.getMessage().isBlank(), entry);
        }
    }

    @Example
    void eachMissingOrWrongFieldIsNamed() {
        assertRefused("{\"type\":\"REGISTER\",\"clusterName\":\"c\",\"address\":\"a:1\",\"haAddress\":\"a:2\"}",
                "brokerName missing");
        assertRefused("{\"type\":\"REGISTER\",\"clusterName\":\"c\",\"brokerName\":\" \",\"address\":\"a:1\","
                + "\"haAddress\":\"a:2\"}", "brokerName missing");
        assertRefused("{\"type\":\"ALTER_SYNC_STATE_SET\",\"brokerName\":\"b\",\"masterBrokerId\":1}",
                "syncStateSet missing");
        assertRefused("{\"type\":\"SHRINK\",\"brokerName\":\"b\"}", "unknown command type 'SHRINK'");
        assertRefused("{\"brokerName\":\"b\"}", "unknown command type 'null'");
        assertRefused("null", "empty command");
        assertRefused("{\"type\":\"ELECT\",\"brokerName\":\"b\",\"expectedMasterEpoch\":\"first\","
                + "\"newMasterBrokerId\":1}", "bad ELECT command");
        assertRefused("{not json", "not a JSON command");
    }

    private static void assertRefused(String entry, String reason) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ControllerLogDescriptor.decode(entry.getBytes(StandardCharsets.UTF_8)), entry);
        assertTrue(e.getMessage().startsWith(reason), entry + " -> " + e.getMessage());
    }

    @Provide
    Arbitrary<ControllerCommand> commands() {
        Arbitrary<String> names = Arbitraries.strings().withChars("abXY09-_%é\"\\/:{}[],").ofMinLength(1)
                .ofMaxLength(16).filter(s -> !s.isBlank());
        Arbitrary<Integer> epochs = Arbitraries.integers().between(0, Integer.MAX_VALUE);
        Arbitrary<Long> ids = Arbitraries.longs().between(-1, Long.MAX_VALUE);
        Arbitrary<ControllerCommand> register = Combinators.combine(names, names, names, names)
                .as(ControllerCommand.Register::new);
        Arbitrary<ControllerCommand> elect = Combinators.combine(names, epochs, ids)
                .as(ControllerCommand.Elect::new);
        Arbitrary<Set<Long>> sets = ids.set().ofMaxSize(5);
        Arbitrary<ControllerCommand> alter = Combinators.combine(names, ids, epochs, epochs, sets)
                .as(ControllerCommand.AlterSyncStateSet::new);
        return Arbitraries.oneOf(register, elect, alter);
    }

    @Provide
    Arbitrary<ApplyResult> results() {
        return Combinators.combine(Arbitraries.integers().between(0, 3000), Arbitraries.longs(),
                Arbitraries.strings().ofMaxLength(30)).as(ApplyResult::new);
    }

    @Provide
    Arbitrary<String> entries() {
        Arbitrary<String> fragments = Arbitraries.of("{", "}", "[", "]", ",", ":", "\"type\"", "\"REGISTER\"",
                "\"ELECT\"", "\"ALTER_SYNC_STATE_SET\"", "\"brokerName\"", "\"b\"", "\"syncStateSet\"", "1", "-1",
                "\"x\"", "null", "true", "1e99", "99999999999999999999", "\"expectedMasterEpoch\"",
                "\"newMasterBrokerId\"", "\"address\"", "\"clusterName\"", "\"haAddress\"");
        Arbitrary<String> shaped = fragments.list().ofMaxSize(14).map(list -> String.join("", list));
        Arbitrary<String> almostCommands = commands().map(c -> new String(ControllerLogDescriptor.encode(c),
                StandardCharsets.UTF_8)).flatMap(json -> Arbitraries.integers().between(0, json.length() - 1)
                .map(cut -> json.substring(0, cut) + json.substring(cut + 1)));
        return Arbitraries.frequencyOf(Tuple.of(3, shaped), Tuple.of(2, almostCommands),
                Tuple.of(1, Arbitraries.strings().ofMaxLength(20)));
    }
}
