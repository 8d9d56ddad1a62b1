package io.sluice.store.thread;

import java.util.Objects;
import org.agrona.concurrent.Agent;

/**
 * An {@link Agent} made of a role name and a duty cycle, for owners whose own type cannot be the agent (it has
 * another contract, or several threads).
 *
 * <p>Thread-safety: that of the duty cycle, which runs on the agent's thread.
 */
public final class LoopAgent implements Agent {

    /** One duty cycle. */
    @FunctionalInterface
    public interface DutyCycle {
        /** Does one round of work and returns how much was done (0: none, so the thread may idle). */
        int doWork() throws Exception;
    }

    private final String roleName;
    private final DutyCycle cycle;
    private final Runnable onClose;

    /**
     * @param roleName the thread's name: what it owns
     * @param cycle    one round of work
     */
    public LoopAgent(String roleName, DutyCycle cycle) {
        this(roleName, cycle, () -> { });
    }

    /**
     * @param onClose runs once on the agent's thread after its last cycle (releases what the cycles held)
     */
    public LoopAgent(String roleName, DutyCycle cycle, Runnable onClose) {
        this.roleName = Objects.requireNonNull(roleName, "roleName");
        this.cycle = Objects.requireNonNull(cycle, "cycle");
        this.onClose = Objects.requireNonNull(onClose, "onClose");
    }

    @Override
    public void onClose() {
        onClose.run();
    }

    @Override
    public int doWork() throws Exception {
        return cycle.doWork();
    }

    @Override
    public String roleName() {
        return roleName;
    }
}
