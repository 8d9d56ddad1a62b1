/** The name server: broker registration and topic routes. */
package io.sluice.namesrv;
