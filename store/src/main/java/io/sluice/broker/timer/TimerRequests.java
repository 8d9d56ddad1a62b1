package io.sluice.broker.timer;

import io.sluice.format.MessageProperties;

/**
 * Reads a send's timer properties ({@code TIMER_DELIVER_MS}: epoch ms; {@code TIMER_DELAY_SEC},
 * {@code TIMER_DELAY_MS}: relative to the broker's receipt) into a delivery time, or the reason it is refused.
 * When several are present the first of that order counts, as Apache's broker reads them.
 *
 * <p>Stateless; thread-safe.
 */
final class TimerRequests {

    private static final String[] NAMES = {MessageProperties.TIMER_DELIVER_MS, MessageProperties.TIMER_DELAY_SEC,
        MessageProperties.TIMER_DELAY_MS};

    private TimerRequests() {
    }

    /** What a send's timer properties ask for. */
    sealed interface Admission permits NotTimer, At, Refused {
    }

    /** No timer property: a normal send. */
    record NotTimer() implements Admission {
    }

    /** Deliver at {@code deliverMs} (epoch ms); {@code property} is the property that said so. */
    record At(long deliverMs, String property) implements Admission {
    }

    /** Refused: {@code remark} names the property and the problem. */
    record Refused(String remark) implements Admission {
    }

    /**
     * The delivery time asked by {@code propertiesText}, received at {@code receivedMs}.
     *
     * @param maxDelayMs the furthest delivery time accepted, after {@code receivedMs}
     */
    static Admission admit(String propertiesText, long receivedMs, long maxDelayMs) {
        for (String name : NAMES) {
            String value = MessageProperties.find(propertiesText, name);
            if (value != null) {
                return admit(name, value, receivedMs, maxDelayMs);
            }
        }
        return new NotTimer();
    }

    private static Admission admit(String name, String value, long receivedMs, long maxDelayMs) {
        long number;
        try {
            number = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return new Refused("timer property " + name + " must be a number, was \"" + value + "\"");
        }
        long deliverMs;
        if (MessageProperties.TIMER_DELIVER_MS.equals(name)) {
            deliverMs = number;
        } else {
            long delayMs = MessageProperties.TIMER_DELAY_SEC.equals(name) ? saturatedTimes1000(number) : number;
            deliverMs = delayMs <= 0 ? receivedMs : saturatedAdd(receivedMs, delayMs);
        }
        if (deliverMs > receivedMs && deliverMs - receivedMs > maxDelayMs) {
            return new Refused("timer property " + name + "=" + value + " asks for a delivery "
                    + (deliverMs - receivedMs) + " ms from now, beyond timerMaxDelaySec (" + maxDelayMs / 1000
                    + " s)");
        }
        return new At(Math.max(0, deliverMs), name);
    }

    /** Saturates both ways: a wrapped product would turn a negative delay (deliver now) into a huge one. */
    private static long saturatedTimes1000(long seconds) {
        if (seconds > Long.MAX_VALUE / 1000) {
            return Long.MAX_VALUE;
        }
        return seconds < Long.MIN_VALUE / 1000 ? Long.MIN_VALUE : seconds * 1000;
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < a ? Long.MAX_VALUE : sum;
    }
}
