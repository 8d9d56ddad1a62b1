package io.sluice.namesrv.handler;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;

/** Response builders shared by the handlers. */
final class Responses {

    private Responses() {
    }

    static RemotingCommand success(RemotingCommand request) {
        return RemotingCommand.responseTo(request);
    }

    static RemotingCommand success(RemotingCommand request, Object body) {
        return RemotingCommand.responseTo(request).setBody(BodyCodec.encode(body));
    }

    static RemotingCommand error(RemotingCommand request, int code, String remark) {
        return RemotingCommand.responseTo(request, code, remark);
    }

    static RemotingCommand systemError(RemotingCommand request, String remark) {
        return error(request, ResponseCode.SYSTEM_ERROR, remark);
    }
}
