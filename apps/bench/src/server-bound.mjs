// The server-bound limit: the bench's echo servers driven with no client at all. Every request is
// built before the clock starts; what is timed is writing them and counting the answers, so the
// rate is what the server (and the pipe or socket) can do. It bounds every client.
//   stdio: one child; a pipelined burst is every request in one write, then answers are counted by
//   newline; a sequential call is one pre-built line written, then one newline waited for.
//   HTTP: pre-built requests on raw keep-alive sockets (64 of them for a burst, as ours' pool; one for
//   sequential), each socket one request at a time; an answer is counted when its body is complete
//   (Content-Length for /json, the last chunk for /sse).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { connect } from "node:net";

const line = (id) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello ${id}"}}}\n`;
const INIT =
  '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcp-bench","version":"1.0.0"}}}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n';

/** A stdio echo server and a way to wait for `n` more answer lines. */
async function stdioServer(command, args) {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "ignore"] });
  let seen = 0;
  let want = 0;
  let done;
  child.stdout.on("data", (chunk) => {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) seen++;
    if (done && seen >= want) (done(), (done = undefined));
  });
  const answers = (n) => {
    want += n;
    return seen >= want ? Promise.resolve() : new Promise((resolve) => (done = resolve));
  };
  child.stdin.write(INIT);
  await answers(1);
  return {
    write: (text) => child.stdin.write(text),
    answers,
    close: async () => {
      child.stdin.end();
      if (child.exitCode === null) await once(child, "exit");
    },
  };
}

/** One keep-alive socket that sends a pre-built request and resolves when its answer is complete. */
async function httpSocket(url) {
  const socket = connect(Number(url.port), url.hostname);
  await once(socket, "connect");
  socket.setNoDelay(true);
  let buffer = "";
  let done;
  socket.setEncoding("latin1");
  socket.on("data", (chunk) => {
    buffer += chunk;
    const head = buffer.indexOf("\r\n\r\n");
    if (head === -1) return;
    const length = /\r\ncontent-length: *(\d+)/i.exec(buffer.slice(0, head));
    const complete = length ? buffer.length >= head + 4 + Number(length[1]) : buffer.endsWith("\r\n0\r\n\r\n");
    if (complete) {
      buffer = "";
      const resolve = done;
      done = undefined;
      resolve();
    }
  });
  return {
    send: (request) =>
      new Promise((resolve) => {
        done = resolve;
        socket.write(request);
      }),
    close: () => socket.destroy(),
  };
}

function httpRequest(url, id) {
  const body = line(id).trimEnd();
  return `POST ${url.pathname} HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** Calls per second of each measured rep for `scenario` (stdio-seq/pipe, http-json/sse-seq/pipe), after `warmReps` unmeasured ones. */
export async function serverBound(scenario, o, stdioCommand) {
  const pipe = scenario.endsWith("pipe");
  const count = pipe ? o.pipe : o.seq;
  const bursts = pipe ? (o.pipeBursts ?? 1) : 1;
  let rep;
  let close;
  if (scenario.startsWith("stdio")) {
    const server = await stdioServer(stdioCommand.command, stdioCommand.args);
    close = server.close;
    const lines = Array.from({ length: count }, (_, i) => line(i + 1));
    const all = lines.join("");
    rep = pipe
      ? async () => {
          for (let b = 0; b < bursts; b++) {
            const answered = server.answers(count);
            server.write(all);
            await answered;
          }
        }
      : async () => {
          for (const l of lines) {
            const answered = server.answers(1);
            server.write(l);
            await answered;
          }
        };
  } else {
    const url = new URL(`${o.baseUrl}/${scenario.startsWith("http-sse") ? "sse" : "json"}`);
    const sockets = await Promise.all(Array.from({ length: pipe ? Math.min(64, count) : 1 }, () => httpSocket(url)));
    close = async () => sockets.forEach((s) => s.close());
    const requests = Array.from({ length: count }, (_, i) => httpRequest(url, i + 1));
    const run = async () => {
      let next = 0;
      await Promise.all(
        sockets.map(async (socket) => {
          while (next < requests.length) await socket.send(requests[next++]);
        }),
      );
    };
    rep = async () => {
      for (let b = 0; b < bursts; b++) await run();
    };
  }
  try {
    for (let i = 0; i < (o.warmReps ?? 1); i++) await rep();
    const out = [];
    for (let i = 0; i < o.reps; i++) {
      const started = performance.now();
      await rep();
      out.push((count * bursts * 1000) / (performance.now() - started));
    }
    return out;
  } finally {
    await close();
  }
}
