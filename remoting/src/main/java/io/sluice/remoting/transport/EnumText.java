package io.sluice.remoting.transport;

import java.util.Locale;
import java.util.StringJoiner;

/** The configuration spelling of enum settings: lower-case names, parsed in any case. Stateless. */
final class EnumText {

    private EnumText() {
    }

    /**
     * The constant of {@code type} named {@code text} (trimmed, any case).
     *
     * @throws IllegalArgumentException naming {@code what} and the accepted values
     */
    static <E extends Enum<E>> E parse(Class<E> type, String text, String what) {
        String trimmed = text == null ? "" : text.trim();
        StringJoiner accepted = new StringJoiner(", ");
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equalsIgnoreCase(trimmed)) {
                return constant;
            }
            accepted.add(text(constant));
        }
        throw new IllegalArgumentException(what + " must be one of " + accepted + ", was '" + text + "'");
    }

    static String text(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT);
    }
}
