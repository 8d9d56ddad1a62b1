/**
 * The wire and record formats, written once for the client, the broker and the storage engine: the stored record
 * ({@link io.sluice.format.RecordDescriptor}, which pull responses ship unchanged), the batch body and its
 * entries ({@link io.sluice.format.BatchBodyDescriptor}), the properties string
 * ({@link io.sluice.format.MessageProperties}), the two message ids ({@link io.sluice.format.MessageIdDescriptor},
 * {@link io.sluice.format.UniqKeyGenerator}) and the topic filter type ({@link io.sluice.format.TopicFilterType}).
 *
 * <p>Codecs here work on {@code byte[]}, {@link java.nio.ByteBuffer} and Agrona buffers only: the engine, which
 * never sees Netty, uses them as they are, and the client and remoting keep their Netty adapters to themselves.
 */
package io.sluice.format;
