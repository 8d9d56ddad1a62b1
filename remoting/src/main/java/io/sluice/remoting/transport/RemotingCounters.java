package io.sluice.remoting.transport;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Event counters of one server or client, instead of per-request logging. Thread-safe: every counter is an
 * {@link AtomicLong}, incremented by the transport, read by anyone.
 */
public final class RemotingCounters {
    final AtomicLong connectionsOpened = new AtomicLong();
    final AtomicLong connectionsClosed = new AtomicLong();
    final AtomicLong framesRejected = new AtomicLong();
    final AtomicLong connectionsClosedForBadInput = new AtomicLong();
    final AtomicLong requests = new AtomicLong();
    final AtomicLong onewayRequests = new AtomicLong();
    final AtomicLong responses = new AtomicLong();
    final AtomicLong requestsNotSupported = new AtomicLong();
    final AtomicLong requestsRefusedBusy = new AtomicLong();
    final AtomicLong handlerErrors = new AtomicLong();
    final AtomicLong responseWriteFailures = new AtomicLong();
    final AtomicLong unmatchedResponses = new AtomicLong();
    final AtomicLong outboundRequests = new AtomicLong();
    final AtomicLong outboundTimeouts = new AtomicLong();
    final AtomicLong readPauses = new AtomicLong();
    final AtomicLong readResumes = new AtomicLong();
    final AtomicLong systemErrors = new AtomicLong();
    final AtomicLong logLinesSuppressed = new AtomicLong();

    /** Connections that became active. */
    public long connectionsOpened() {
        return connectionsOpened.get();
    }

    /** Connections that closed, for any reason. */
    public long connectionsClosed() {
        return connectionsClosed.get();
    }

    /** Frames refused by the decoder (size limit, inconsistent lengths, unknown serialize type, bad header). */
    public long framesRejected() {
        return framesRejected.get();
    }

    /** Connections closed because they sent a frame that could not be decoded. */
    public long connectionsClosedForBadInput() {
        return connectionsClosedForBadInput.get();
    }

    /** Inbound requests dispatched to a handler, oneway ones included. */
    public long requests() {
        return requests.get();
    }

    /** Inbound oneway requests (also counted in {@link #requests()}). */
    public long onewayRequests() {
        return onewayRequests.get();
    }

    /** Responses written successfully. */
    public long responses() {
        return responses.get();
    }

    /** Requests answered with REQUEST_CODE_NOT_SUPPORTED. */
    public long requestsNotSupported() {
        return requestsNotSupported.get();
    }

    /** Requests answered SYSTEM_BUSY because their queue was full ({@link QueueBound}). */
    public long requestsRefusedBusy() {
        return requestsRefusedBusy.get();
    }

    /** Handler failures (exceptions, null results) turned into SYSTEM_ERROR responses or dropped for oneway. */
    public long handlerErrors() {
        return handlerErrors.get();
    }

    /** Responses that could not be written (connection gone, or not encodable). */
    public long responseWriteFailures() {
        return responseWriteFailures.get();
    }

    /** Responses whose opaque matched no outstanding request (late after a timeout, or bogus). */
    public long unmatchedResponses() {
        return unmatchedResponses.get();
    }

    /** Requests sent to peers, oneway ones included. */
    public long outboundRequests() {
        return outboundRequests.get();
    }

    /** Requests sent to peers that got no response in time. */
    public long outboundTimeouts() {
        return outboundTimeouts.get();
    }

    /** Times a connection stopped being read because it reached a high water mark. */
    public long readPauses() {
        return readPauses.get();
    }

    /** Times reading resumed after falling to the low water marks. */
    public long readResumes() {
        return readResumes.get();
    }

    /** Requests answered SYSTEM_ERROR, for any reason (a handler's answer or failure, a malformed header). */
    public long systemErrors() {
        return systemErrors.get();
    }

    /** Log lines about bad input or SYSTEM_ERROR answers left out by the rate limit ({@link LogLimiter}). */
    public long logLinesSuppressed() {
        return logLinesSuppressed.get();
    }

    /** All counters by name, for export and logging. */
    public Map<String, Long> snapshot() {
        Map<String, Long> values = new LinkedHashMap<>();
        values.put("connectionsOpened", connectionsOpened());
        values.put("connectionsClosed", connectionsClosed());
        values.put("framesRejected", framesRejected());
        values.put("connectionsClosedForBadInput", connectionsClosedForBadInput());
        values.put("requests", requests());
        values.put("onewayRequests", onewayRequests());
        values.put("responses", responses());
        values.put("requestsNotSupported", requestsNotSupported());
        values.put("requestsRefusedBusy", requestsRefusedBusy());
        values.put("handlerErrors", handlerErrors());
        values.put("responseWriteFailures", responseWriteFailures());
        values.put("unmatchedResponses", unmatchedResponses());
        values.put("outboundRequests", outboundRequests());
        values.put("outboundTimeouts", outboundTimeouts());
        values.put("readPauses", readPauses());
        values.put("readResumes", readResumes());
        values.put("systemErrors", systemErrors());
        values.put("logLinesSuppressed", logLinesSuppressed());
        return values;
    }

    @Override
    public String toString() {
        return "RemotingCounters" + snapshot();
    }
}
