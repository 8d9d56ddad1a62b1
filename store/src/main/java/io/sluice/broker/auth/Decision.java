package io.sluice.broker.auth;

/** What a matching policy entry decides, with ACL 2.0's names. */
public enum Decision {
    ALLOW("Allow"),
    DENY("Deny");

    private final String text;

    Decision(String text) {
        this.text = text;
    }

    public String text() {
        return text;
    }

    /**
     * Parses {@code Allow} or {@code Deny} (any case).
     *
     * @throws IllegalArgumentException otherwise
     */
    public static Decision parse(String text) {
        for (Decision decision : values()) {
            if (decision.text.equalsIgnoreCase(text == null ? "" : text.trim())) {
                return decision;
            }
        }
        throw new IllegalArgumentException("decision must be Allow or Deny, was '" + text + "'");
    }
}
