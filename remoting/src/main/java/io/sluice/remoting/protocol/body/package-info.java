/**
 * JSON bodies of the RocketMQ remoting protocol, field for field compatible with the Apache RocketMQ client
 * (which parses them with fastjson 1.2.83).
 *
 * <p>Every body is an immutable record whose component names are the JSON keys. {@link
 * io.sluice.remoting.protocol.body.BodyCodec} turns a body into standard JSON (all map keys quoted, keys sorted,
 * null values omitted) and back. Collections are never null: an absent JSON array or object decodes as an empty
 * collection. Records here have no {@code getX()}/{@code isX()} helper methods, because the JSON writer would
 * emit them as keys.
 *
 * <p>{@link io.sluice.remoting.protocol.body.JsonObjects} is the one untyped JSON parse, for code that reads a few
 * named members of a value that has no body record (configuration values, controller log entries, stored metadata).
 *
 * <p>All types in this package are immutable and therefore thread-safe.
 */
package io.sluice.remoting.protocol.body;
