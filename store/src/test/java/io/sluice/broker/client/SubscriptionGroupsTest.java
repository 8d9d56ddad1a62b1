package io.sluice.broker.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.meta.MetadataSettings;
import io.sluice.broker.meta.MetadataStore;
import io.sluice.broker.meta.SubscriptionGroupConfig;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Consumer group configs with Apache's auto-creation: an unknown valid group is created with the defaults only
 * while auto-creation is on; a delete takes the group's pending resets with it and, when asked, its offsets; and
 * the pending resets themselves are handed out once.
 */
@Timeout(30)
class SubscriptionGroupsTest {

    private MetadataStore metadata;

    @AfterEach
    void closeMetadata() {
        metadata.close();
    }

    @Test
    void unknownGroupsAreCreatedOnlyWhileAutoCreationIsOn(@TempDir Path dir) {
        metadata = MetadataStore.open(MetadataSettings.of(dir));
        SubscriptionGroups groups = new SubscriptionGroups(metadata, false);
        assertFalse(groups.wouldCreate("g1"));
        assertTrue(groups.findOrCreate("g1").isEmpty());
        assertTrue(groups.find("g1").isEmpty(), "nothing was stored");

        groups.setAutoCreate(true);
        assertTrue(groups.wouldCreate("g1"));
        assertEquals(SubscriptionGroupConfig.defaults("g1"), groups.findOrCreate("g1").orElseThrow());
        assertFalse(groups.wouldCreate("g1"), "it exists now");
        assertEquals(SubscriptionGroupConfig.defaults("g1"), metadata.getGroup("g1").orElseThrow());
        assertTrue(groups.findOrCreate("bad group name").isEmpty(), "an illegal name is never created");
        assertTrue(groups.findOrCreate("").isEmpty());
        assertEquals(List.of("g1"), groups.all().stream().map(SubscriptionGroupConfig::groupName).toList());
    }

    @Test
    void anExistingGroupIsKeptAsConfiguredAndSaysWhetherItWantsNotifications(@TempDir Path dir) {
        metadata = MetadataStore.open(MetadataSettings.of(dir));
        SubscriptionGroups groups = new SubscriptionGroups(metadata, true);
        SubscriptionGroupConfig quiet = SubscriptionGroupConfig.builder("quiet")
                .notifyConsumerIdsChangedEnable(false).build();
        groups.put(quiet);
        assertEquals(quiet, groups.findOrCreate("quiet").orElseThrow(), "not replaced by the defaults");
        assertFalse(groups.notifyEnabled("quiet"));
        assertTrue(groups.notifyEnabled("unknown"), "Apache's default for a group it does not know");
        assertTrue(groups.find("unknown").isEmpty(), "asking does not create");
    }

    @Test
    void aDeleteDropsPendingResetsAndOffsetsWhenAsked(@TempDir Path dir) {
        metadata = MetadataStore.open(MetadataSettings.of(dir));
        SubscriptionGroups groups = new SubscriptionGroups(metadata, false);
        groups.put(SubscriptionGroupConfig.defaults("g1"));
        groups.put(SubscriptionGroupConfig.defaults("g2"));
        metadata.commitOffset("g1", "T", 0, 5);
        metadata.commitOffset("g2", "T", 0, 6);
        groups.resets().put("g1", "T", 0, 1);
        groups.resets().put("g2", "T", 0, 2);

        assertTrue(groups.delete("g1", false));
        assertTrue(groups.find("g1").isEmpty());
        assertFalse(groups.resets().isPending("g1", "T", 0));
        assertTrue(groups.resets().isPending("g2", "T", 0), "another group's reset stays");
        assertEquals(5, metadata.queryOffset("g1", "T", 0), "offsets kept unless asked");

        assertFalse(groups.delete("g1", true), "already gone");
        assertEquals(-1, metadata.queryOffset("g1", "T", 0), "its offsets are deleted all the same");
        assertTrue(groups.delete("g2", true));
        assertEquals(-1, metadata.queryOffset("g2", "T", 0));
    }

    @Test
    void aPendingResetIsTakenOnceAndMustNotBeNegative(@TempDir Path dir) {
        metadata = MetadataStore.open(MetadataSettings.of(dir));
        PendingResets resets = new SubscriptionGroups(metadata, false).resets();
        resets.put("g", "T", 3, 40);
        resets.put("g", "T", 3, 42);
        assertTrue(resets.isPending("g", "T", 3));
        assertFalse(resets.isPending("g", "T", 2));
        assertFalse(resets.isPending("h", "T", 3));
        assertEquals(42, resets.take("g", "T", 3), "the latest reset wins");
        assertEquals(PendingResets.NONE, resets.take("g", "T", 3));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> resets.put("g", "T", 0, -1));
        assertEquals("reset offset -1 of g/T/0 must be >= 0", e.getMessage());
    }
}
