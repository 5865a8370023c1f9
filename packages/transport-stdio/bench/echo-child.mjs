// A minimal, fast JSONL echo server for benchmarks: answers every request read in one chunk with
// one write, so the client under test, not this child, is what gets measured.
// Methods: anything → {echo: params}; "big" → {data: "x" * params.bytes}.
let rest = "";
const bigCache = new Map();
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  const lines = (rest + chunk).split("\n");
  rest = lines.pop();
  let out = "";
  for (const line of lines) {
    if (!line) continue;
    const m = JSON.parse(line);
    if (m.id === undefined) continue;
    if (m.method === "big") {
      let data = bigCache.get(m.params.bytes);
      if (!data) bigCache.set(m.params.bytes, (data = "x".repeat(m.params.bytes)));
      out += `{"jsonrpc":"2.0","id":${JSON.stringify(m.id)},"result":{"data":"${data}"}}\n`;
    } else {
      out += `${JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { echo: m.params ?? null } })}\n`;
    }
  }
  if (out) process.stdout.write(out);
});
process.stdin.on("end", () => process.exit(0));
