package io.sluice.client.internal;

import io.sluice.client.BrokerErrorException;
import io.sluice.client.ClientException;
import io.sluice.client.SendResult;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.SerializeType;
import io.sluice.remoting.protocol.body.MessageQueue;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * Carries out {@link SendJob}s: finds the route, picks a queue, sends, and retries on another broker after a
 * transport failure or a retryable error code (docs/wire-protocol.md#send-retries) while attempts and the send timeout
 * last. Brokers that fail are reported to {@link FailedBrokers} so that later picks avoid them for a while.
 *
 * <p>Asynchronous throughout: {@link #send} returns at once and the job's outcome is told later, on a client I/O
 * thread (or on the calling thread when the job fails before anything is sent). Thread-safe; it keeps no state of
 * its own besides its collaborators.
 */
public final class RoutedSender {
    /** The auto-create template topic named in every send header. */
    public static final String DEFAULT_TOPIC = "TBW102";

    private final Invoker invoker;
    private final RouteSource routes;
    private final FailedBrokers failed;
    private final String producerGroup;
    private final long sendTimeoutMs;
    private final int maxAttempts;
    private final String defaultTopicQueueNums;
    private final TopicKinds kinds;

    /**
     * @param invoker the transport
     * @param routes where routes come from
     * @param failed brokers to avoid
     * @param producerGroup the producer group named in the headers
     * @param sendTimeoutMs budget of one job, retries included
     * @param retries extra attempts after a failed one
     * @param defaultTopicQueueNums queues of a topic auto-created by a send
     */
    public RoutedSender(Invoker invoker, RouteSource routes, FailedBrokers failed, String producerGroup,
                     long sendTimeoutMs, int retries, int defaultTopicQueueNums) {
        this.invoker = invoker;
        this.routes = routes;
        this.failed = failed;
        this.producerGroup = producerGroup;
        this.sendTimeoutMs = sendTimeoutMs;
        this.maxAttempts = 1 + retries;
        this.defaultTopicQueueNums = Integer.toString(defaultTopicQueueNums);
        this.kinds = new TopicKinds(invoker, Math.min(sendTimeoutMs, 3000));
    }

    /** Starts {@code job}; its outcome is told exactly once, within about the send timeout. */
    public void send(SendJob job) {
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(sendTimeoutMs);
        attempt(job, 1, deadlineNs, null, null);
    }

    /**
     * Sends a single-message {@code job} oneway: one attempt, no response, no retry.
     *
     * @return completes when the request is written, or exceptionally when it could not be
     */
    public CompletableFuture<Void> sendOneway(SendJob job) {
        if (job.isBatch()) { // a batch job's body is released when its outcome is told, which oneway never is
            throw new IllegalArgumentException("a batch of topic " + job.topic() + " cannot be sent oneway");
        }
        return routes.publishRoute(job.topic()).thenCompose(route -> {
            MessageQueue queue = queueFor(job, route, null);
            String address = addressOf(route, queue);
            return invoker.invokeOneway(address, request(job, queue, true).markOneway());
        });
    }

    private void attempt(SendJob job, int attempt, long deadlineNs, String previousBroker, Throwable previousError) {
        long leftMs = TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime());
        if (leftMs <= 0) {
            job.failed(finalError(job, attempt - 1, previousError, true));
            return;
        }
        CompletableFuture<TopicRoute> route;
        try {
            route = routes.publishRoute(job.topic());
        } catch (RuntimeException e) {
            job.failed(e);
            return;
        }
        route.whenComplete((found, routeError) -> {
            if (routeError != null) {
                Throwable cause = unwrap(routeError);
                boolean transport = !(cause instanceof BrokerErrorException);
                if (transport && attempt < maxAttempts && deadlineNs - System.nanoTime() > 0) {
                    attempt(job, attempt + 1, deadlineNs, previousBroker, cause);
                } else {
                    job.failed(cause);
                }
                return;
            }
            try {
                MessageQueue queue = queueFor(job, found, previousBroker);
                String address = addressOf(found, queue);
                CompletableFuture<Boolean> batchCq = job.isBatch() && !found.fromDefaultTopic()
                        ? kinds.isBatchCq(job.topic(), address) : CompletableFuture.completedFuture(true);
                batchCq.thenAccept(withUniqKey -> invoke(address, request(job, queue, withUniqKey), leftMs)
                        .whenComplete((response, error) ->
                                onAnswer(job, attempt, deadlineNs, queue, address, response, error)))
                        .exceptionally(error -> {
                            job.failed(unwrap(error));
                            return null;
                        });
            } catch (RuntimeException e) {
                job.failed(e);
            }
        });
    }

    /** Hands {@code request} to the transport, which releases its body; also when the transport throws. */
    private CompletableFuture<RemotingCommand> invoke(String address, RemotingCommand request, long timeoutMs) {
        try {
            return invoker.invoke(address, request, timeoutMs);
        } catch (RuntimeException | Error e) {
            request.releaseBody();
            throw e;
        }
    }

    private void onAnswer(SendJob job, int attempt, long deadlineNs, MessageQueue queue, String address,
                          RemotingCommand response, Throwable error) {
        try {
            String broker = queue.brokerName();
            Throwable failure;
            if (error != null) {
                failure = new ClientException("sending to " + address + " (broker " + broker + ", topic "
                        + job.topic() + ") failed", unwrap(error));
            } else if (SendResponses.storedStatus(response.code()) != null) {
                failed.succeeded(broker);
                List<SendResult> results = SendResponses.split(response, broker, job.topic(), job.uniqKeys());
                job.succeeded(results);
                return;
            } else {
                failure = new BrokerErrorException(response.code(), response.remark(), address);
                if (!SendResponses.isRetryable(response.code())) {
                    job.failed(failure);
                    return;
                }
            }
            failed.failed(broker);
            if (attempt < maxAttempts && deadlineNs - System.nanoTime() > 0) {
                attempt(job, attempt + 1, deadlineNs, broker, failure);
            } else {
                job.failed(finalError(job, attempt, failure, false));
            }
        } catch (RuntimeException e) {
            job.failed(e);
        }
    }

    private MessageQueue queueFor(SendJob job, TopicRoute route, String previousBroker) {
        if (job.fixedQueue() != null) {
            return job.fixedQueue();
        }
        if (route.publishQueues().isEmpty()) {
            throw new ClientException("topic " + job.topic() + " has no writable queue on a broker with a master");
        }
        return QueuePicker.pick(route, previousBroker, failed);
    }

    private static String addressOf(TopicRoute route, MessageQueue queue) {
        String address = route.masterAddress(queue.brokerName());
        if (address == null) {
            throw new ClientException("broker " + queue.brokerName() + " of topic " + route.topic()
                    + " has no master address in the route");
        }
        return address;
    }

    private RemotingCommand request(SendJob job, MessageQueue queue, boolean withUniqKey) {
        // Binary header fields (ROCKETMQ), which every broker accepts and answers in kind: cheaper to encode and
        // decode than JSON, on both sides, for every send.
        RemotingCommand request = RemotingCommand.request(job.requestCode()).setSerializeType(SerializeType.ROCKETMQ)
                .putExtField("a", producerGroup)
                .putExtField("b", job.topic())
                .putExtField("c", DEFAULT_TOPIC)
                .putExtField("d", defaultTopicQueueNums)
                .putExtField("e", queue.queueId())
                .putExtField("f", "0")
                .putExtField("g", System.currentTimeMillis())
                .putExtField("h", job.userFlag())
                .putExtField("i", withUniqKey ? job.properties() : job.propertiesWithoutUniqKey())
                .putExtField("j", "0")
                .putExtField("k", "false")
                .putExtField("m", job.isBatch())
                .putExtField("n", queue.brokerName());
        return job.attachBody(request);
    }

    private static Throwable finalError(SendJob job, int attempts, Throwable last, boolean timedOut) {
        if (last instanceof BrokerErrorException) {
            return last;
        }
        String what = timedOut ? "timed out" : "failed";
        return new ClientException("send to topic " + job.topic() + " " + what + " after " + attempts
                + " attempt(s)", last);
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }
}
