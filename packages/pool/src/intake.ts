// What the pool holds of one host session's requests, and when its host is to be read no more.
// Requests in service (waiting for a slot, or at the server) are counted up to a mark
// (maxQueuedBytes); past it, the host is still read, so that its notifications (a cancellation)
// and its answers to the server's questions arrive, but its requests wait here, in order, unstarted,
// up to a second limit (maxHeldBytes); past that the host is read no more until there is room.
// While the host reads none of what it is sent (its answers wait unwritten), no request starts:
// those in service finish, the rest stay held, and none of their answers piles up in the daemon.

import type { RequestId } from "@mcp/jsonrpc";

/** A host's request, as it came. */
export interface HostRequest {
  id: RequestId;
  method: string;
  params: Record<string, unknown> | undefined;
  /** Its size as the host sent it. */
  size: number;
}

/** One host session's requests in service and held, and whether to read the host on. */
export class Intake {
  #queued = 0;
  #peak = 0;
  /** Requests past the mark, unstarted, in the order they came (a Map keeps it). */
  readonly #held = new Map<RequestId, HostRequest>();
  #heldBytes = 0;
  #peakHeld = 0;
  /** The host was told to stop (`readable` was false): `onDrain` is owed once it is true again. */
  #stopped = false;
  #ended = false;
  /** The host reads none of its answers: requests are held, not started. */
  #mute = false;

  constructor(
    /** Past this many bytes in service, requests are held instead of started. */
    readonly mark: number,
    /** Past this many bytes held, the host is read no more. */
    readonly holdLimit: number,
    /** Starts one request (it calls {@link done} with its size once answered). */
    readonly start: (request: HostRequest) => void,
    /** The host may be read again. */
    readonly onDrain: () => void,
    /** Anything else that keeps the host unread (its dedicated server not reading its stdin). */
    readonly blocked: () => boolean = () => false,
  ) {}

  get queuedBytes(): number {
    return this.#queued;
  }
  get peakQueuedBytes(): number {
    return this.#peak;
  }
  get heldBytes(): number {
    return this.#heldBytes;
  }
  get peakHeldBytes(): number {
    return this.#peakHeld;
  }

  /** Whether a request with this id waits here. */
  holds(id: RequestId): boolean {
    return this.#held.has(id);
  }

  /** A host request: started now, or held (past the mark, or behind requests already held). */
  take(request: HostRequest): void {
    if (this.#ended) return;
    if (this.#queued <= this.mark && this.#held.size === 0 && !this.#mute) return this.#begin(request);
    this.#held.set(request.id, request);
    this.#heldBytes += request.size;
    if (this.#heldBytes > this.#peakHeld) this.#peakHeld = this.#heldBytes;
  }

  #begin(request: HostRequest): void {
    this.#queued += request.size;
    if (this.#queued > this.#peak) this.#peak = this.#queued;
    this.start(request);
  }

  /** A started request of `size` bytes was answered (or failed, or was cancelled): held ones start while under the mark. */
  done(size: number): void {
    this.#queued -= size;
    this.#startHeld();
    this.resume();
  }

  /** Whether the host reads what it is sent: while it does not, nothing starts; once it does again, held requests start. */
  hostReads(reads: boolean): void {
    this.#mute = !reads;
    if (!reads) return;
    this.#startHeld();
    this.resume();
  }

  #startHeld(): void {
    for (const [id, request] of this.#held) {
      if (this.#ended || this.#mute || this.#queued > this.mark) break;
      this.#held.delete(id);
      this.#heldBytes -= request.size;
      this.#begin(request);
    }
  }

  /** The host cancelled a held request: it is dropped, never started nor answered. False when none waits with that id. */
  cancel(id: RequestId): boolean {
    const request = this.#held.get(id);
    if (request === undefined) return false;
    this.#held.delete(id);
    this.#heldBytes -= request.size;
    this.resume();
    return true;
  }

  /** Whether the host may be read on; when not, `onDrain` comes once it may. */
  readable(): boolean {
    const ok = this.#heldBytes <= this.holdLimit && !this.blocked();
    if (!ok) this.#stopped = true;
    return ok;
  }

  /** Says `onDrain` if the host was stopped and may be read again. */
  resume(): void {
    if (this.#stopped && !this.#ended && this.#heldBytes <= this.holdLimit && !this.blocked()) {
      this.#stopped = false;
      this.onDrain();
    }
  }

  /** The session ended: held requests are dropped (their host is gone), nothing more starts. */
  end(): void {
    this.#ended = true;
    this.#held.clear();
    this.#heldBytes = 0;
  }
}
