// @mcp/replay: record an MCP session, and serve the recording again in-process, over stdio or over HTTP.
export {
  readRecording,
  recordingFrom,
  RecordingError,
  type Exchange,
  type Recording,
  type RecordingFromOptions,
  type ServerMessage,
} from "./file.js";
export { openRecording, type OpenRecordingOptions, type RecordingFile } from "./record-file.js";
export { ReplaySession, type ReplayEvent, type Send } from "./session.js";
export {
  connectReplay,
  ReplayTransport,
  UnrecordedRequestError,
  type ClosestRequest,
  type ConnectReplayOptions,
  type ReplayTransportOptions,
} from "./in-process.js";
export { serveReplayStdio } from "./stdio.js";
export { serveReplayHttp, type ReplayHttpOptions, type ReplayHttpServer } from "./http.js";
export type { RecordedMessage, RecordListener } from "@mcp/client";
