package io.sluice.remoting.transport;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/** The choice between the native epoll transport and NIO, made once per endpoint. Immutable. */
record NettyTransport(boolean epoll) {

    /** Epoll when preferred and available on this machine, else NIO. */
    static NettyTransport choose(boolean preferEpoll) {
        return new NettyTransport(preferEpoll && Epoll.isAvailable());
    }

    EventLoopGroup newGroup(int threads, String threadName) {
        DefaultThreadFactory factory = new DefaultThreadFactory(threadName, true);
        return epoll ? new EpollEventLoopGroup(threads, factory) : new NioEventLoopGroup(threads, factory);
    }

    Class<? extends ServerChannel> serverChannel() {
        return epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    Class<? extends SocketChannel> clientChannel() {
        return epoll ? EpollSocketChannel.class : NioSocketChannel.class;
    }
}
