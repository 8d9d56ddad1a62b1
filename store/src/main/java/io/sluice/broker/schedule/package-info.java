/**
 * Delay levels (docs/wire-protocol.md#send-back): messages carrying a {@code DELAY} level wait in
 * {@code SCHEDULE_TOPIC_XXXX} queue {@code level - 1} and are re-stored into their real topic and queue once due.
 * {@link io.sluice.broker.schedule.StoredMessage} decodes a stored record for the broker paths that copy messages
 * (delivery of due messages, consumer send-back).
 */
package io.sluice.broker.schedule;
