#!/usr/bin/env node
// The bench's HTTP server, in its own process: Streamable HTTP without sessions. `POST /json` answers
// with an `application/json` body, `POST /sse` with a one-event `text/event-stream`; GET and DELETE
// are 405 (no standalone stream, nothing to end). Prints its port on stdout; exits when stdin ends.
import { createServer } from "node:http";
import { answer } from "./echo.mjs";

const server = createServer((req, res) => {
  if (req.method !== "POST") {
    res.writeHead(405, { allow: "POST" }).end();
    return;
  }
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const reply = answer(JSON.parse(Buffer.concat(chunks).toString("utf8")));
    if (reply === undefined) {
      res.writeHead(202).end();
    } else if (req.url === "/sse") {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.end(`event: message\ndata: ${reply}\n\n`);
    } else {
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(reply) });
      res.end(reply);
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.stdout.write(`${server.address().port}\n`));
process.stdin.on("end", () => server.close(() => process.exit(0)));
process.stdin.resume();
