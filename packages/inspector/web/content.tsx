// Tool results and prompt messages, drawn by content type.
import type { ContentBlock } from "../src/api.js";

export function Json({ value }: { value: unknown }) {
  return <pre class="json-view">{JSON.stringify(value, null, 2)}</pre>;
}

function dataUrl(mimeType: string | undefined, data: string): string {
  return `data:${mimeType ?? "application/octet-stream"};base64,${data}`;
}

/** One content block; `onOpenResource` follows a resource link. */
export function Content({
  block,
  onOpenResource,
}: {
  block: ContentBlock;
  onOpenResource?: ((uri: string) => void) | undefined;
}) {
  switch (block.type) {
    case "text":
      return <pre class="content text">{block.text}</pre>;
    case "image":
      return (
        <img
          class="content image"
          alt={`image (${block.mimeType ?? "?"})`}
          src={dataUrl(block.mimeType, block.data ?? "")}
        />
      );
    case "audio":
      return <audio class="content audio" controls src={dataUrl(block.mimeType, block.data ?? "")} />;
    case "resource_link":
      return (
        <div class="content link">
          resource link:{" "}
          <a
            href="#"
            onClick={(e) => {
              e.preventDefault();
              if (block.uri) onOpenResource?.(block.uri);
            }}
          >
            {block.name ?? block.uri}
          </a>{" "}
          <code>{block.uri}</code> {block.mimeType ? <span class="muted">{block.mimeType}</span> : null}
        </div>
      );
    case "resource": {
      const r = block.resource;
      return (
        <div class="content embedded">
          <div>
            embedded resource <code>{r?.uri}</code> {r?.mimeType ? <span class="muted">{r.mimeType}</span> : null}
          </div>
          {r?.text !== undefined ? (
            <pre class="text">{r.text}</pre>
          ) : r?.blob !== undefined ? (
            <Blob uri={r.uri} mimeType={r.mimeType} blob={r.blob} />
          ) : null}
        </div>
      );
    }
    default:
      return <Json value={block} />;
  }
}

/** Binary resource contents: an image inline, anything else a download link. */
export function Blob({ uri, mimeType, blob }: { uri: string; mimeType?: string | undefined; blob: string }) {
  if (mimeType?.startsWith("image/")) return <img class="content image" alt={uri} src={dataUrl(mimeType, blob)} />;
  const bytes = Math.floor((blob.length * 3) / 4);
  return (
    <a class="download" download={uri.split("/").pop() || "resource"} href={dataUrl(mimeType, blob)}>
      download ({bytes} bytes{mimeType ? `, ${mimeType}` : ""})
    </a>
  );
}

export function Ms({ ms }: { ms: number | undefined }) {
  return ms === undefined ? null : <span class="ms">{ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms</span>;
}
