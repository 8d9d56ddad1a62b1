package io.sluice.broker.auth;

import java.util.Objects;

/**
 * The resources a policy entry covers, in ACL 2.0's notation: {@code *} (everything), {@code Topic:*} (every topic),
 * {@code Topic:order-*} (topics starting with {@code order-}) or {@code Topic:orders} (one topic); likewise
 * {@code Group:} and {@code Cluster:}. Immutable.
 *
 * @param type the resource type, or null for {@code *}
 * @param name the literal name or the prefix (without the star); empty for every resource of the type
 * @param prefixed whether {@code name} is a prefix
 */
public record ResourcePattern(ResourceType type, String name, boolean prefixed) {
    /** Everything. */
    static final ResourcePattern ANY = new ResourcePattern(null, "", true);

    public ResourcePattern {
        Objects.requireNonNull(name, "name");
    }

    /**
     * Parses ACL 2.0's notation.
     *
     * @throws IllegalArgumentException naming the accepted forms
     */
    public static ResourcePattern parse(String text) {
        String trimmed = text == null ? "" : text.trim();
        if (trimmed.equals("*")) {
            return ANY;
        }
        int colon = trimmed.indexOf(':');
        ResourceType type = colon > 0 ? ResourceType.find(trimmed.substring(0, colon)) : null;
        String name = colon > 0 ? trimmed.substring(colon + 1) : "";
        if (type == null || name.isEmpty() || name.indexOf('*') >= 0 && name.indexOf('*') != name.length() - 1) {
            throw new IllegalArgumentException("resource must be *, Topic:<name>, Group:<name> or Cluster:<name>,"
                    + " where <name> may end with * (a prefix); was '" + text + "'");
        }
        boolean prefixed = name.endsWith("*");
        return new ResourcePattern(type, prefixed ? name.substring(0, name.length() - 1) : name, prefixed);
    }

    boolean matches(Resource resource) {
        if (type == null) {
            return true;
        }
        if (type != resource.type()) {
            return false;
        }
        return prefixed ? resource.name().startsWith(name) : resource.name().equals(name);
    }

    /** How narrow the pattern is: a literal beats any prefix, a longer prefix a shorter one, and all beat *. */
    int specificity() {
        if (type == null) {
            return 0;
        }
        return prefixed ? 1 + name.length() : Integer.MAX_VALUE;
    }

    @Override
    public String toString() {
        if (type == null) {
            return "*";
        }
        return type.text() + ":" + name + (prefixed ? "*" : "");
    }
}
