// The gateway mounted in a test server over one SDK 1.x probe upstream, for the suites that drive it
// with raw loopback sockets (keep-alive, linger): one caller token, the server side of each connection
// in the order it was accepted, and each request's response object. Each suite passes its own `stops`.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { buildProbe1x, startSdkServer } from "mcp-test-utils";
import type { Caller, CreateGatewayOptions } from "../src/index.js";
import { mountGateway, type Mounted } from "./app.js";

/** The one caller the probe gateway knows, and its bearer token. */
export const ALICE: Caller = { id: "alice-id", name: "alice" };
export const TOKEN = "alice-token-0123456789";

export interface ProbeMount {
  url: URL;
  app: Mounted["app"];
  /** The server side of every connection accepted so far, in order. */
  accepted: Socket[];
  /** The server side of the `n`th connection (from 0), once accepted. */
  serverSide: (n: number) => Promise<Socket>;
  /** The response of every request the test server was handed, in order. */
  requests: ServerResponse[];
}

/** Mounts the gateway (with `options`) over a fresh probe upstream; what it starts is stopped through `stops`. */
export async function mountProbe(
  stops: (() => Promise<void> | void)[],
  options: Partial<CreateGatewayOptions> = {},
): Promise<ProbeMount> {
  const upstream = await startSdkServer({ build: buildProbe1x });
  stops.push(() => upstream.stop());
  const mounted = await mountGateway(
    { probe: { type: "http", url: upstream.url } },
    { tokens: new Map([[TOKEN, ALICE]]), ...options },
  );
  stops.push(() => mounted.stop());
  const accepted: Socket[] = [];
  const arrived: ((socket: Socket) => void)[] = [];
  mounted.app.on("connection", (socket: Socket) => {
    accepted.push(socket);
    arrived.shift()?.(socket);
  });
  const serverSide = (n: number): Promise<Socket> =>
    accepted[n] ? Promise.resolve(accepted[n]) : new Promise((resolve) => arrived.push(resolve));
  const requests: ServerResponse[] = [];
  mounted.app.on("request", (_req: IncomingMessage, res: ServerResponse) => requests.push(res));
  return { url: new URL(mounted.url), app: mounted.app, accepted, serverSide, requests };
}
