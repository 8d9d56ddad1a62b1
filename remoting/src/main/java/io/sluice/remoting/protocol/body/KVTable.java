package io.sluice.remoting.protocol.body;

import java.util.Map;

/**
 * A string-to-string table {@code {"table":{"k":"v"}}}: the GET_BROKER_RUNTIME_INFO body and the name server's
 * key-value configuration of one namespace.
 *
 * @param table the entries; never null
 */
public record KVTable(Map<String, String> table) {

    /** Normalises an absent table. */
    public KVTable {
        table = Copies.map(table, "table");
    }
}
