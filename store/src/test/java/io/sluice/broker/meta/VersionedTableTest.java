package io.sluice.broker.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

/**
 * A versioned metadata table on its own RocksDB: a change writes only the rows that differ, with the next version,
 * a reload sees exactly what was written, and a stored row that is unreadable or filed under another name stops
 * the load with an error naming it.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class VersionedTableTest {

    private static final byte[] VERSION_KEY = "rows".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    private DBOptions options;
    private RocksDB db;
    private final List<ColumnFamilyHandle> handles = new ArrayList<>();
    private WriteOptions sync;

    @BeforeEach
    void open() throws RocksDBException {
        RocksDB.loadLibrary();
        options = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
        db = RocksDB.open(options, dir.toString(), List.of(
                new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY),
                new ColumnFamilyDescriptor("rows".getBytes(StandardCharsets.US_ASCII)),
                new ColumnFamilyDescriptor("versions".getBytes(StandardCharsets.US_ASCII))), handles);
        sync = new WriteOptions().setSync(true);
    }

    @AfterEach
    void close() {
        sync.close();
        handles.forEach(ColumnFamilyHandle::close);
        db.close();
        options.close();
    }

    /** Rows are {@code name=value}; a stored value without '=' is unreadable. */
    private VersionedTable<String> table() {
        return new VersionedTable<>("row", handles.get(1), handles.get(2), VERSION_KEY,
                row -> row.substring(0, row.indexOf('=')), row -> row, text -> {
                    if (text.indexOf('=') < 1) {
                        throw new IllegalArgumentException("no name in '" + text + "'");
                    }
                    return text;
                });
    }

    @Test
    void shouldWriteOnlyChangedRowsWithTheNextVersionAndReloadThem() throws RocksDBException {
        VersionedTable<String> table = table();
        table.load(db, 1_000);
        TableVersion initial = table.version();
        TableVersion first = table.put(db, sync, List.of("a=1", "b=2"), 2_000);
        assertEquals(initial.next(2_000), first);
        assertEquals(first, table.put(db, sync, List.of("a=1", "b=2"), 3_000), "nothing changed: same version");
        TableVersion second = table.put(db, sync, List.of("a=1", "b=3"), 4_000);
        assertEquals(first.next(4_000), second);
        assertTrue(table.delete(db, sync, "a", 5_000));
        assertFalse(table.delete(db, sync, "a", 6_000), "gone already: nothing written");
        TableVersion last = table.version();
        assertEquals(second.next(5_000), last);

        VersionedTable<String> reloaded = table();
        reloaded.load(db, 9_000);
        assertEquals(last, reloaded.version());
        assertEquals(List.of("b=3"), reloaded.all());
        assertEquals(Optional.empty(), reloaded.get("a"));
        Map.Entry<TableVersion, Map<String, String>> snapshot = reloaded.snapshot();
        assertEquals(last, snapshot.getKey());
        assertEquals(Map.of("b", "b=3"), snapshot.getValue());
    }

    @Test
    void shouldRefuseToLoadAnUnreadableRowNamingIt() throws RocksDBException {
        db.put(handles.get(1), MetadataKeyDescriptor.nameKey("broken"), MetadataJson.utf8("garbage"));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> table().load(db, 1_000));
        assertTrue(refused.getMessage().contains("'broken' is unreadable"), refused.getMessage());
    }

    @Test
    void shouldRefuseToLoadARowFiledUnderAnotherName() throws RocksDBException {
        db.put(handles.get(1), MetadataKeyDescriptor.nameKey("a"), MetadataJson.utf8("b=1"));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> table().load(db, 1_000));
        assertTrue(refused.getMessage().contains("under key 'a' is named 'b'"), refused.getMessage());
    }
}
