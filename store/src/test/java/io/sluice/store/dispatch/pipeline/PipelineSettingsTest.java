package io.sluice.store.dispatch.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PipelineSettingsTest {

    @Test
    void shouldDefaultToFourMebibyteChunksAndOneWorkerPerProcessor() {
        PipelineSettings d = PipelineSettings.defaults();
        assertEquals(4 * 1024 * 1024, d.chunkBytes());
        assertEquals(8192, d.maxRecordsPerChunk());
        assertEquals(Math.max(1, Runtime.getRuntime().availableProcessors()), d.parseThreads());
        assertEquals(16, d.ringSlots());
        assertEquals(false, d.checkCrc());
        assertEquals(256 * 1024, d.inlineMaxBytes());
    }

    @Test
    void shouldNameTheBadValue() {
        assertNamed("chunkBytes", "0", () -> PipelineSettings.defaults().withChunkBytes(0));
        assertNamed("chunkBytes", String.valueOf(Integer.MAX_VALUE),
                () -> PipelineSettings.defaults().withChunkBytes(Integer.MAX_VALUE));
        assertNamed("maxRecordsPerChunk", "-3", () -> PipelineSettings.defaults().withMaxRecordsPerChunk(-3));
        assertNamed("parseThreads", "0", () -> PipelineSettings.defaults().withParseThreads(0));
        assertNamed("parseThreads", "257", () -> PipelineSettings.defaults().withParseThreads(257));
        assertNamed("ringSlots", "0", () -> PipelineSettings.defaults().withRingSlots(0));
        assertNamed("ringSlots", "1025", () -> PipelineSettings.defaults().withRingSlots(1025));
        assertNamed("inlineMaxBytes", "-1", () -> PipelineSettings.defaults().withInlineMaxBytes(-1));
    }

    @Test
    void shouldKeepTheOtherValuesWhenOneChanges() {
        PipelineSettings s = PipelineSettings.defaults().withChunkBytes(1024).withRingSlots(2).withParseThreads(3)
                .withMaxRecordsPerChunk(7).withCheckCrc(true);
        assertEquals(new PipelineSettings(1024, 7, 3, 2, true), s);
        assertEquals(new PipelineSettings(1024, 7, 3, 2, true, 0), s.withInlineMaxBytes(0));
    }

    private static void assertNamed(String name, String value, Runnable r) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
        assertTrue(e.getMessage().contains(name) && e.getMessage().contains(value), e.getMessage());
    }
}
