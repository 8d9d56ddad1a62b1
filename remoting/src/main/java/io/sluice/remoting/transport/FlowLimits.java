package io.sluice.remoting.transport;

/**
 * Per-connection bounds on in-flight inbound requests (count and bytes): reading stops at a high mark and
 * resumes when both values are at or below their low marks. Immutable.
 */
record FlowLimits(int highRequests, int lowRequests, long highBytes, long lowBytes) {

    static void validate(int maxFrameBytes, int highRequests, int lowRequests, long highBytes, long lowBytes,
                         long idleTimeoutMs) {
        if (maxFrameBytes < 64) {
            throw new IllegalArgumentException("maxFrameBytes " + maxFrameBytes + " is below 64");
        }
        if (lowRequests < 0 || highRequests <= lowRequests) {
            throw new IllegalArgumentException("request water marks need 0 <= low < high, were low "
                    + lowRequests + " high " + highRequests);
        }
        if (lowBytes < 0 || highBytes <= lowBytes) {
            throw new IllegalArgumentException("byte water marks need 0 <= low < high, were low "
                    + lowBytes + " high " + highBytes);
        }
        if (idleTimeoutMs < 0) {
            throw new IllegalArgumentException("idleTimeoutMs must not be negative, was " + idleTimeoutMs);
        }
    }
}
