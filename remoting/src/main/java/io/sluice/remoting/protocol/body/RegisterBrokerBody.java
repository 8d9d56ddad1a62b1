package io.sluice.remoting.protocol.body;

import java.util.List;
import java.util.zip.CRC32;

/**
 * Body of REGISTER_BROKER (103), uncompressed form:
 * {@code {"filterServerList":[],"topicConfigSerializeWrapper":{...}}}. A full registration lists every topic of the
 * broker; an incremental one only the new or changed topics, with a bumped data version.
 *
 * @param topicConfigSerializeWrapper the broker's topics and their version; never null
 * @param filterServerList filter-server addresses (always empty in practice); never null
 */
public record RegisterBrokerBody(TopicConfigSerializeWrapper topicConfigSerializeWrapper,
                                 List<String> filterServerList) {

    /** Normalises absent members. */
    public RegisterBrokerBody {
        topicConfigSerializeWrapper = topicConfigSerializeWrapper == null
                ? TopicConfigSerializeWrapper.of(DataVersion.ZERO, null)
                : topicConfigSerializeWrapper;
        filterServerList = Copies.list(filterServerList, "filterServerList");
    }

    /**
     * The {@code bodyCrc32} header value of an encoded body: CRC32 (IEEE, {@code java.util.zip}) masked with
     * {@code 0x7FFFFFFF}; 0 for an absent body. The name server compares it with the body it received (a header
     * value of 0 disables the check).
     *
     * @param encodedBody the body bytes as sent, or null
     * @return the checksum
     */
    public static int crc32(byte[] encodedBody) {
        if (encodedBody == null || encodedBody.length == 0) {
            return 0;
        }
        CRC32 crc = new CRC32();
        crc.update(encodedBody);
        return (int) (crc.getValue() & 0x7FFFFFFF);
    }
}
