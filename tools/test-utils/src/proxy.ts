// A real forward proxy on loopback for tests: the `proxy` package from npm (TooTallNate's, which
// proxy-agent is tested against): plain requests in absolute form and CONNECT tunnels, optional
// Basic proxy authentication.
import { createServer, type IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { createProxy } from "proxy";

export interface TestProxy {
  /** `http://127.0.0.1:<port>` (no credentials). */
  url: string;
  port: number;
  /** Each request it forwarded or tunnelled: `"GET http://…"`, `"POST http://…"`, `"CONNECT host:port"`. */
  log: string[];
  /** Ends every connection through it at once (tunnels included), as a proxy restarting would. */
  dropAll(): void;
  stop(): Promise<void>;
}

export interface TestProxyOptions {
  /** Asks for these Basic credentials (407 without them). */
  auth?: { user: string; password: string } | undefined;
  /** Refuses a CONNECT to this port with 403, as a proxy that allows only some ports does. */
  refuseConnectPort?: number | undefined;
}

/** Starts a forward proxy on a free loopback port. */
export async function startProxy(options: TestProxyOptions = {}): Promise<TestProxy> {
  const server = createServer();
  const log: string[] = [];
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  const proxy = createProxy(server);
  if (options.auth) {
    const expected = `Basic ${Buffer.from(`${options.auth.user}:${options.auth.password}`).toString("base64")}`;
    proxy.authenticate = (req) => req.headers["proxy-authorization"] === expected;
  }
  // The proxy's own CONNECT handler, behind the log and the refused port.
  const [onConnect] = server.listeners("connect") as ((req: IncomingMessage, socket: Socket, head: Buffer) => void)[];
  server.removeAllListeners("connect");
  server.on("connect", (req: IncomingMessage, socket: Socket, head: Buffer) => {
    log.push(`CONNECT ${req.url}`);
    if (options.refuseConnectPort !== undefined && req.url?.endsWith(`:${options.refuseConnectPort}`)) {
      socket.end("HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n");
      return;
    }
    onConnect!.call(server, req, socket, head);
  });
  server.prependListener("request", (req: IncomingMessage) => log.push(`${req.method} ${req.url}`));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    log,
    dropAll: () => {
      for (const socket of sockets) socket.destroy();
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
