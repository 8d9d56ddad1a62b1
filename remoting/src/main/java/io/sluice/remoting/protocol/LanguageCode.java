package io.sluice.remoting.protocol;

/**
 * Language of the peer that created a command (docs/wire-protocol.md#language-and-version). The binary header carries
 * {@link #code()}; the JSON header carries {@link #name()}. Immutable, thread-safe.
 */
public enum LanguageCode {
    JAVA(0), CPP(1), DOTNET(2), PYTHON(3), DELPHI(4), ERLANG(5), RUBY(6), OTHER(7), HTTP(8), GO(9), PHP(10),
    OMS(11), RUST(12), NODE_JS(13);

    private static final LanguageCode[] BY_CODE = values();

    private final byte code;

    LanguageCode(int code) {
        this.code = (byte) code;
    }

    /** The one-byte value used in the ROCKETMQ binary header. */
    public byte code() {
        return code;
    }

    /**
     * Maps a wire value back to a language. Unknown values map to {@link #OTHER}: the language is informational
     * and a newer peer must not be disconnected for it.
     */
    public static LanguageCode fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : OTHER;
    }

    /** Maps a JSON name back to a language; unknown names map to {@link #OTHER}. */
    public static LanguageCode fromName(String name) {
        for (LanguageCode language : BY_CODE) {
            if (language.name().equals(name)) {
                return language;
            }
        }
        return OTHER;
    }
}
