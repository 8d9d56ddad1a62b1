/**
 * The broker's topic table on top of {@link io.sluice.broker.meta.MetadataStore}: admin creation and deletion,
 * auto-creation on send, the retry and dead-letter topics of consumer groups, and announcing changes to the name
 * servers before they are acknowledged.
 */
package io.sluice.broker.topic;
