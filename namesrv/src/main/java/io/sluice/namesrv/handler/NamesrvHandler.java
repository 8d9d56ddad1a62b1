package io.sluice.namesrv.handler;

import io.sluice.remoting.transport.SyncRequestHandler;
import java.util.Set;

/**
 * A handler for one family of name-server request codes. Stateless apart from the tables it is given, and
 * thread-safe: the transport may call it from several lanes at once.
 */
public interface NamesrvHandler extends SyncRequestHandler {

    /**
     * The request codes this handler answers.
     *
     * @return the codes
     */
    Set<Integer> codes();
}
