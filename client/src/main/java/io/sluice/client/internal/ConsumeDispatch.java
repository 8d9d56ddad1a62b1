package io.sluice.client.internal;

import io.sluice.client.ReceivedMessage;
import java.util.List;

/** How pulled messages reach the listener: concurrently or in queue order. Implementations are thread-safe. */
public interface ConsumeDispatch extends AutoCloseable {

    /** A queue was assigned (orderly: lock it). Called on the rebalance thread. */
    void onAdded(ProcessQueue queue);

    /** Whether {@code queue} may be pulled now (orderly: only while locked). */
    boolean mayPull(ProcessQueue queue);

    /** Messages were pulled into {@code queue}; hand them to the listener. */
    void submit(ProcessQueue queue, List<ReceivedMessage> messages);

    /** A queue was taken away (orderly: unlock it). Called on the rebalance thread. */
    void onRemoved(ProcessQueue queue);

    /** Stops consuming; waits briefly for running listener calls. */
    @Override
    void close();
}
