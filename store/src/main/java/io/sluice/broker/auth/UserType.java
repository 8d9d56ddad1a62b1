package io.sluice.broker.auth;

/** A user's kind, with ACL 2.0's names: a super user passes every authorization check. */
public enum UserType {
    SUPER("Super"),
    NORMAL("Normal");

    private final String text;

    UserType(String text) {
        this.text = text;
    }

    public String text() {
        return text;
    }

    /**
     * Parses {@code Super} or {@code Normal} (any case).
     *
     * @throws IllegalArgumentException otherwise
     */
    public static UserType parse(String text) {
        for (UserType type : values()) {
            if (type.text.equalsIgnoreCase(text == null ? "" : text.trim())) {
                return type;
            }
        }
        throw new IllegalArgumentException("user type must be Super or Normal, was '" + text + "'");
    }
}
