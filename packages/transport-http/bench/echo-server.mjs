// A minimal Streamable HTTP echo server for benchmarks, in its own process: POST /json answers
// with a JSON body, POST /sse with a one-event SSE stream; method "big" returns params.bytes of data.
import { createServer } from "node:http";

const bigCache = new Map();
const server = createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    if (req.method !== "POST") return void res.writeHead(405).end();
    const m = JSON.parse(body);
    if (m.id === undefined) return void res.writeHead(202).end();
    let payload;
    if (m.method === "big") {
      let data = bigCache.get(m.params.bytes);
      if (!data) bigCache.set(m.params.bytes, (data = "x".repeat(m.params.bytes)));
      payload = `{"jsonrpc":"2.0","id":${JSON.stringify(m.id)},"result":{"data":"${data}"}}`;
    } else {
      payload = JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { echo: m.params ?? null } });
    }
    if (req.url === "/sse") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`event: message\ndata: ${payload}\n\n`);
    } else {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(payload);
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.stdout.write(`${server.address().port}\n`));
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
