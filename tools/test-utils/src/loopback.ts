import type { Server } from "node:http";

/** Listens on a free 127.0.0.1 port: the base URL, and a stop that ends open connections too. */
export async function listenOnLoopback(http: Server): Promise<{ origin: string; stop: () => Promise<void> }> {
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
