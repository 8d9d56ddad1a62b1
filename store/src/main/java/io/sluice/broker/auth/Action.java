package io.sluice.broker.auth;

/** What a request does to a resource, with ACL 2.0's names. */
public enum Action {
    /** Every action; in a policy entry it matches any request. */
    ALL("All"),
    /** Send messages to a topic. */
    PUB("Pub"),
    /** Consume from a topic, or as a group. */
    SUB("Sub"),
    /** Create a topic or group. */
    CREATE("Create"),
    /** Change a topic, group, offset or configuration. */
    UPDATE("Update"),
    /** Delete a topic or group. */
    DELETE("Delete"),
    /** Read one resource's configuration or state. */
    GET("Get"),
    /** List resources. */
    LIST("List");

    private final String text;

    Action(String text) {
        this.text = text;
    }

    /** ACL 2.0's spelling, e.g. {@code Pub}. */
    public String text() {
        return text;
    }

    /**
     * Parses ACL 2.0's spelling (any case).
     *
     * @throws IllegalArgumentException naming the accepted values
     */
    public static Action parse(String text) {
        for (Action action : values()) {
            if (action.text.equalsIgnoreCase(text == null ? "" : text.trim())) {
                return action;
            }
        }
        throw new IllegalArgumentException("action must be one of All, Pub, Sub, Create, Update, Delete, Get, List;"
                + " was '" + text + "'");
    }
}
