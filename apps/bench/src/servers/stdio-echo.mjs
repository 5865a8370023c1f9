#!/usr/bin/env node
// The bench's stdio server: JSONL on stdin/stdout, every answer to one chunk in one write.
// `--init-delay MS` holds the `initialize` answer until MS after the process started, like a server
// that takes that long to get ready (the manager scenario).
import { answer } from "./echo.mjs";

// performance.now() counts from the process's start (its time origin), not from this script's.
const flag = process.argv.indexOf("--init-delay");
const initDelay = flag === -1 ? 0 : Number(process.argv[flag + 1]);

let rest = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  const lines = (rest + chunk).split("\n");
  rest = lines.pop();
  let out = "";
  for (const line of lines) {
    if (line === "") continue;
    const message = JSON.parse(line);
    const reply = answer(message);
    if (reply === undefined) continue;
    const wait = message.method === "initialize" ? initDelay - performance.now() : 0;
    if (wait > 0) setTimeout(() => process.stdout.write(`${reply}\n`), wait);
    else out += `${reply}\n`;
  }
  if (out !== "") process.stdout.write(out);
});
process.stdin.on("end", () => process.exit(0));
