package io.sluice.store;

import static io.sluice.store.StoreFixture.SIMPLE_TOPIC;
import static io.sluice.store.StoreFixture.appendOk;
import static io.sluice.store.StoreFixture.awaitDispatched;
import static io.sluice.store.StoreFixture.draft;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.store.log.AppendResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@link LogTail}: the end of a closed store, and cutting its log back as a replica following a new master does. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LogTailTest {

    @TempDir
    Path root;

    @Test
    void truncationDropsTheTailAndItsQueueSlotsAndOffsetsContinueFromTheCut() throws IOException {
        StoreSettings settings = StoreFixture.settings(root).build();
        long cut;
        long end;
        try (MessageStore store = MessageStore.open(settings, StoreFixture.TYPES)) {
            long at = 0;
            for (int i = 0; i < 10; i++) {
                AppendResult r = appendOk(store, draft(SIMPLE_TOPIC, 0, "m" + i));
                if (i == 6) {
                    at = r.position();
                }
            }
            awaitDispatched(store);
            cut = at;
            end = store.logEndPosition();
            store.checkpoint();
        }
        assertEquals(end, LogTail.end(settings));
        assertEquals(end, LogTail.truncate(settings, end + 1_000), "nothing beyond the end to cut");
        assertEquals(cut, LogTail.truncate(settings, cut));
        assertEquals(cut, LogTail.end(settings));

        try (MessageStore store = MessageStore.open(settings, StoreFixture.TYPES)) {
            assertEquals(cut, store.logEndPosition());
            assertEquals(6, store.maxOffset(SIMPLE_TOPIC, 0), "the slots of the cut records are gone");
            AppendResult next = appendOk(store, draft(SIMPLE_TOPIC, 0, "after"));
            assertEquals(6, next.queueOffset(), "offsets continue densely from the cut");
            assertEquals(cut, next.position());
        }
    }

    @Test
    void anOpenStoreIsNotTouched() throws IOException {
        StoreSettings settings = StoreFixture.settings(root).build();
        try (MessageStore store = MessageStore.open(settings, StoreFixture.TYPES)) {
            appendOk(store, draft(SIMPLE_TOPIC, 0, "m"));
            assertThrows(IOException.class, () -> LogTail.truncate(settings, 0));
        }
    }
}
