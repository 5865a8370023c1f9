import type { ToolResult } from "./types.js";

// A tool result as the parts every model API can take some form of: text and images (base64).
// Audio, binary resources and links become text that says what they are (and where a saved
// copy is), so nothing is silently lost.

/** One part of a result for a model. */
export type ResultPart = { kind: "text"; text: string } | { kind: "image"; mimeType: string; data: string };

/** The parts of a result, in order; structured content is given as JSON when no text says it already. */
export function resultParts(result: ToolResult): ResultPart[] {
  const parts: ResultPart[] = [];
  const str = (value: unknown, fallback = ""): string => (typeof value === "string" ? value : fallback);
  for (const block of result.content ?? []) {
    const b = block as Record<string, unknown> & { type: string };
    switch (b.type) {
      case "text":
        parts.push({ kind: "text", text: str(b["text"]) });
        break;
      case "image":
        parts.push({ kind: "image", mimeType: str(b["mimeType"], "image/png"), data: str(b["data"]) });
        break;
      case "audio":
        parts.push({
          kind: "text",
          text: `[audio ${str(b["mimeType"])}, ${approxBytes(b["data"])} bytes: not sent to the model]`,
        });
        break;
      case "resource_link":
        parts.push({
          kind: "text",
          text: `[resource link: ${str(b["name"], str(b["uri"]))} <${str(b["uri"])}>${typeof b["description"] === "string" ? ` ${b["description"]}` : ""}]`,
        });
        break;
      case "resource": {
        const resource = (b["resource"] ?? {}) as Record<string, unknown>;
        const uri = str(resource["uri"]);
        const mimeType = typeof resource["mimeType"] === "string" ? resource["mimeType"] : undefined;
        if (typeof resource["text"] === "string")
          parts.push({
            kind: "text",
            text: `[resource ${uri}${mimeType ? ` (${mimeType})` : ""}]\n${resource["text"]}`,
          });
        else if (mimeType?.startsWith("image/") && typeof resource["blob"] === "string")
          parts.push({ kind: "image", mimeType, data: resource["blob"] });
        else
          parts.push({
            kind: "text",
            text: `[resource ${uri}${mimeType ? ` (${mimeType})` : ""}, ${approxBytes(resource["blob"])} bytes of binary content: not sent to the model]`,
          });
        break;
      }
      default:
        parts.push({ kind: "text", text: JSON.stringify(block) });
    }
  }
  const structured = result.structuredContent;
  if (structured !== undefined) {
    const json = JSON.stringify(structured);
    if (!parts.some((p) => p.kind === "text" && p.text.includes(json))) parts.push({ kind: "text", text: json });
  }
  if (parts.length === 0)
    parts.push({ kind: "text", text: result.isError ? "The tool failed and said nothing more." : "(no output)" });
  return parts;
}

/** The parts as one text (images named, not sent). */
export function resultText(result: ToolResult): string {
  return resultParts(result)
    .map((p) => (p.kind === "text" ? p.text : `[image ${p.mimeType}, ${approxBytes(p.data)} bytes]`))
    .join("\n");
}

function approxBytes(base64: unknown): number {
  return typeof base64 === "string" ? Math.floor((base64.length * 3) / 4) : 0;
}
