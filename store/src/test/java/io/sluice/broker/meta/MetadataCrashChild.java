package io.sluice.broker.meta;

import io.sluice.format.ConsumeQueueType;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * Child-process half of {@link MetadataStoreCrashIT}: opens the store in {@code args[0]} and, until it is killed,
 * creates topics {@code crash-<i>} and commits offset {@code i}, printing {@code acked topic <i>} and
 * {@code acked offset <i>} after each call returns. Exits by itself when its standard input closes (the parent
 * died), or after {@value #MAX_ITERATIONS} iterations.
 */
final class MetadataCrashChild {

    static final String GROUP = "crash-group";
    static final String OFFSET_TOPIC = "crash-offsets";
    private static final int MAX_ITERATIONS = 1_000_000;

    private MetadataCrashChild() {
    }

    public static void main(String[] args) {
        Thread watchdog = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // the parent never writes; read() returns -1 once it is gone
                }
            } catch (IOException e) {
                // treated like end of input below
            }
            Runtime.getRuntime().halt(3);
        }, "parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();

        PrintStream out = System.out;
        MetadataStore store = MetadataStore.open(MetadataSettings.of(Path.of(args[0])));
        out.println("open");
        out.flush();
        for (int i = 0; i < MAX_ITERATIONS; i++) {
            store.putTopic(TopicConfig.of("crash-" + i, 1 + i % 16, i % 2 == 0 ? ConsumeQueueType.SIMPLE : ConsumeQueueType.BATCH));
            out.println("acked topic " + i);
            store.commitOffset(GROUP, OFFSET_TOPIC, 0, i);
            out.println("acked offset " + i);
            out.flush();
        }
        store.close();
    }
}
