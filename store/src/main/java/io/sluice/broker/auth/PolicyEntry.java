package io.sluice.broker.auth;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One rule of a user's policy: on resources matching {@code resource()}, the {@code actions()}, from
 * {@code sourceIps()} (any address when empty), are allowed or denied. Immutable; the addresses are parsed once,
 * here. Equal when resource, actions, addresses and decision are.
 */
public final class PolicyEntry {
    private final ResourcePattern resource;
    private final Set<Action> actions;
    private final List<String> sourceIps;
    private final List<SourceAddress> sources;
    private final Decision decision;

    /**
     * Validates every field; the exception names the bad value.
     *
     * @param resource the resources covered
     * @param actions the actions covered; {@link Action#ALL} covers every action
     * @param sourceIps client addresses covered: IPv4 or IPv6 literals, or networks such as {@code 10.0.0.0/8};
     *                  empty = every address
     * @param decision allow or deny
     */
    public PolicyEntry(ResourcePattern resource, Set<Action> actions, List<String> sourceIps, Decision decision) {
        this.resource = Objects.requireNonNull(resource, "resource");
        this.decision = Objects.requireNonNull(decision, "decision");
        if (actions == null || actions.isEmpty()) {
            throw new IllegalArgumentException("a policy entry on " + resource + " needs at least one action");
        }
        this.actions = Set.copyOf(EnumSet.copyOf(actions));
        this.sourceIps = List.copyOf(sourceIps);
        List<SourceAddress> parsed = new ArrayList<>();
        for (String ip : this.sourceIps) {
            parsed.add(SourceAddress.parse(ip));
        }
        this.sources = List.copyOf(parsed);
    }

    public ResourcePattern resource() {
        return resource;
    }

    public Set<Action> actions() {
        return actions;
    }

    public List<String> sourceIps() {
        return sourceIps;
    }

    public Decision decision() {
        return decision;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PolicyEntry entry && resource.equals(entry.resource) && actions.equals(entry.actions)
                && sourceIps.equals(entry.sourceIps) && decision == entry.decision;
    }

    @Override
    public int hashCode() {
        return Objects.hash(resource, actions, sourceIps, decision);
    }

    @Override
    public String toString() {
        return decision.text() + " " + actions + " on " + resource + (sourceIps.isEmpty() ? "" : " from " + sourceIps);
    }

    /** Whether this entry speaks about {@code target} for any of {@code wanted} from {@code sourceIp}. */
    boolean covers(Resource target, Set<Action> wanted, InetAddress source) {
        if (!resource.matches(target)) {
            return false;
        }
        if (!actions.contains(Action.ALL)) {
            boolean any = false;
            for (Action action : wanted) {
                any |= actions.contains(action);
            }
            if (!any) {
                return false;
            }
        }
        if (sources.isEmpty()) {
            return true;
        }
        for (SourceAddress address : sources) {
            if (address.contains(source)) {
                return true;
            }
        }
        return false;
    }

    /** An address or network of a policy entry; the array is never changed or handed out. */
    private record SourceAddress(byte[] network, int prefixBits) {
        static SourceAddress parse(String text) {
            String trimmed = text == null ? "" : text.trim();
            int slash = trimmed.indexOf('/');
            String address = slash < 0 ? trimmed : trimmed.substring(0, slash);
            byte[] bytes = address.indexOf(':') >= 0 ? ipv6(address, text) : ipv4(address, text);
            int bits = bytes.length * 8;
            if (slash >= 0) {
                try {
                    bits = Integer.parseInt(trimmed.substring(slash + 1));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("network '" + text + "' has no prefix length", e);
                }
                if (bits < 0 || bits > bytes.length * 8) {
                    throw new IllegalArgumentException("network '" + text + "' has prefix length out of range");
                }
            }
            return new SourceAddress(bytes, bits);
        }

        /** Four decimal parts of 0 to 255: the short forms InetAddress also takes ("10.1") are refused. */
        private static byte[] ipv4(String address, String text) {
            String[] parts = address.split("\\.", -1);
            if (parts.length != 4) {
                throw notALiteral(text);
            }
            byte[] bytes = new byte[4];
            for (int i = 0; i < 4; i++) {
                String part = parts[i];
                if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(c -> c >= '0' && c <= '9')
                        || Integer.parseInt(part) > 255) {
                    throw notALiteral(text);
                }
                bytes[i] = (byte) Integer.parseInt(part);
            }
            return bytes;
        }

        /**
         * An IPv6 literal. With a colon in it and a hex digit or colon first, InetAddress parses the text as a
         * literal and never asks DNS.
         */
        private static byte[] ipv6(String address, String text) {
            boolean literal = (Character.digit(address.charAt(0), 16) >= 0 || address.charAt(0) == ':')
                    && address.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == '.' || c == ':');
            if (!literal) {
                throw notALiteral(text);
            }
            try {
                return InetAddress.getByName(address).getAddress();
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("source address '" + text + "' is not an IP literal", e);
            }
        }

        private static IllegalArgumentException notALiteral(String text) {
            return new IllegalArgumentException("source address must be an IP literal or IPv4 network a.b.c.d/n,"
                    + " was '" + text + "'");
        }

        boolean contains(InetAddress source) {
            byte[] candidate = source.getAddress();
            if (candidate.length != network.length) {
                return false;
            }
            int full = prefixBits / 8;
            for (int i = 0; i < full; i++) {
                if (candidate[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefixBits % 8;
            if (rest == 0) {
                return true;
            }
            int mask = 0xFF << (8 - rest) & 0xFF;
            return (candidate[full] & mask) == (network[full] & mask);
        }
    }
}
