package io.sluice.namesrv.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.body.KVTable;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class KvConfigTableTest {

    private final KvConfigTable table = new KvConfigTable();

    @Test
    void shouldStoreReadAndDeleteValuesPerNamespace() {
        assertEquals(Optional.empty(), table.put(KvConfigTable.ORDER_TOPIC_CONFIG, "T", "broker-a:4"));
        assertEquals(Optional.of("broker-a:4"), table.put(KvConfigTable.ORDER_TOPIC_CONFIG, "T", "broker-a:8"));
        table.put("other", "T", "x");

        assertEquals(Optional.of("broker-a:8"), table.get(KvConfigTable.ORDER_TOPIC_CONFIG, "T"));
        assertEquals(Optional.of(new KVTable(Map.of("T", "broker-a:8"))),
                table.namespace(KvConfigTable.ORDER_TOPIC_CONFIG));
        assertTrue(table.delete(KvConfigTable.ORDER_TOPIC_CONFIG, "T"));
        assertFalse(table.delete(KvConfigTable.ORDER_TOPIC_CONFIG, "T"));
        assertEquals(Optional.empty(), table.get(KvConfigTable.ORDER_TOPIC_CONFIG, "T"));
        assertEquals(Optional.empty(), table.namespace(KvConfigTable.ORDER_TOPIC_CONFIG));
        assertEquals(Optional.of("x"), table.get("other", "T"));
    }

    @Test
    void shouldAnswerEmptyForUnknownNamespacesAndKeys() {
        assertEquals(Optional.empty(), table.get("none", "k"));
        assertFalse(table.delete("none", "k"));
    }

    @Test
    void shouldRejectBlankNamesAndNullValues() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> table.put("", "k", "v"));
        assertTrue(error.getMessage().contains("namespace"), error.getMessage());
        assertThrows(IllegalArgumentException.class, () -> table.put("n", " ", "v"));
        assertThrows(IllegalArgumentException.class, () -> table.put("n", "k", null));
    }
}
