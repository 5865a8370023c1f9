// The inspector's one error class: a bad option of startInspector, or a port it could not listen on.

/** A bad option, or a port the inspector could not listen on. */
export class InspectorError extends Error {
  override readonly name = "InspectorError";
  constructor(
    message: string,
    /** `invalid_option`: an option is not what its TSDoc says; `listen_failed`: the port is taken or not allowed. */
    readonly code: "invalid_option" | "listen_failed",
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
